// The reference WFM, the kit's embedded default: the Device API of interfaces.md §4.1-§4.4 with P2-P4 on loopback.
import { startListening } from '../../protocol/listen.ts';
import { withRewrites, type Rewrite } from '../faults/rewrite.ts';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { judgePeer, mtlsServerOptions, type WfmSvidSettings } from './mtls.ts';
import type { RateLimit } from './rate-limit.ts';
import type { ExchangeRecorder } from './recorder.ts';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import { refusalReply, WfmError } from './http.ts';
import { guardServer } from '../server-guards.ts';
import { createWfmHandler } from './handler.ts';
import { cleanWfmDecisions, type WfmDecisions } from './decisions/index.ts';
import type { WfmHooks } from './hooks.ts';
import type { WfmStateView } from './state-view.ts';

export { createWfmHandler, type WfmHandler, type WfmHandlerOptions } from './handler.ts';
export type { WfmHooks } from './hooks.ts';
export type { WfmStateView } from './state-view.ts';

export interface StartWfmOptions {
  /** DNS names clients reach it by (`wfmck serve --hostname`): a wildcard listen address's URLs name the first. */
  hostnames?: readonly string[];
  /** Defaults to 127.0.0.1: the reference WFM is for the kit's own machine. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** PEM certificate chain and key; with them the WFM serves HTTPS. */
  tls?: { cert: string; key: string };
  /** P10 (profile deviceAuth mtls): the WFM's SVID, trust domain and bundle anchors; replaces `tls`. */
  svid?: WfmSvidSettings;
  /** PEM of the WFM root CA served by the Certificate API (P2). */
  rootCaPem: string;
  /** Client certificates chaining to one of these are trusted at onboarding. */
  trustedDeviceCaPems: string[];
  profile?: Profile;
  /** Default 1 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Default 10 s; a request body that stalls longer gets 408. */
  bodyTimeoutMs?: number;
  /** What this WFM decides; default the clean service's (a faulty variant replaces single decisions, reference/faults/). */
  decisions?: WfmDecisions;
  /** Rewrites of its answers (response-level faults of reference/faults/), applied in order. */
  rewrites?: readonly Rewrite[];
  /** Per-client request budget; past it, 429 with Retry-After. None by default. */
  rateLimit?: RateLimit;
  /** Judging mode (device persona): every exchange is kept by client. */
  recorder?: ExchangeRecorder;
}

export interface WfmService {
  /** Origin without a trailing slash, e.g. https://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
  hooks: WfmHooks;
  /** Read-only snapshots for the kit's own tests. */
  state: WfmStateView;
  /** miaf: the trust bundle changed (a rotation): new connections validate against these anchors. */
  setTrustAnchors(anchorsPem: string[]): void;
  /** miaf: connections refused after the handshake, newest last (at most 100), for the kit's own tests. */
  tlsRefusals: string[];
}

/** miaf: how long an idle client connection stays open. */
export const MTLS_KEEP_ALIVE_MS = 65_000;

export async function startWfm(opts: StartWfmOptions): Promise<WfmService> {
  const mtls = opts.profile?.deviceAuth === 'mtls';
  if (mtls && !opts.svid) throw new Error('reference WFM: profile deviceAuth "mtls" needs the WFM\'s SVID settings (svid)');
  const svid = mtls ? { ...opts.svid! } : undefined;
  const decisions = opts.decisions ?? cleanWfmDecisions;
  // Each admitted connection's SPIFFE ID and certificate; a request's client is the one its connection proved (P10).
  const peers = new WeakMap<Socket, { spiffeId: string; fingerprint256?: string }>();
  const tlsRefusals: string[] = [];
  const handler = createWfmHandler({
    ...opts,
    decisions,
    scheme: opts.tls || svid ? 'https' : 'http',
    peerOf: (socket) => peers.get(socket)?.spiffeId,
    peerCertificateOf: (socket) => peers.get(socket)?.fingerprint256,
  });
  // Judging mode takes TLS 1.2 as the fallback it is (P10), so a client that offers no more still shows what it offers.
  const tlsProfile = opts.recorder && opts.profile ? { ...opts.profile, tlsMinVersion: 'TLSv1.2' as const } : opts.profile!;
  const { hooks, state } = handler;
  const listener = withRewrites(handler.listener, opts.rewrites ?? []);
  let server: Server | HttpsServer;
  if (svid) {
    const https = createHttpsServer(mtlsServerOptions(svid, tlsProfile, decisions), listener);
    https.on('secureConnection', (socket: TLSSocket) => {
      const verdict = judgePeer(socket, svid, opts.profile!.vendor, decisions);
      if (verdict.ok) return void peers.set(socket, verdict);
      tlsRefusals.push(verdict.reason);
      if (tlsRefusals.length > 100) tlsRefusals.shift();
      socket.destroy();
    });
    // A failed handshake is the refusal P10 asks for; it is no error of the service.
    https.on('tlsClientError', () => undefined);
    // Each client holds one connection whose handshake is costly: keep idle ones longer than Node's 5 s, past a
    // device's poll interval.
    https.keepAliveTimeout = MTLS_KEEP_ALIVE_MS;
    server = https;
  } else {
    server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createHttpServer(listener);
  }
  const errorsProfile = opts.profile ?? resolveProfile();
  // The handler's own body deadline answers first (408 at bodyTimeoutMs); this one catches what never reaches it.
  guardServer(server, {
    requestTimeoutMs: (opts.bodyTimeoutMs ?? 10_000) + 20_000,
    errorBody: (status, message) => {
      const reply = refusalReply(errorsProfile, decisions, new WfmError(status, message));
      return { contentType: reply.headers?.['content-type'] ?? 'application/json', body: String(reply.body ?? '') };
    },
  });
  const { url } = await startListening(server, {
    scheme: opts.tls || svid ? 'https' : 'http',
    host: opts.host,
    port: opts.port,
    hostnames: opts.hostnames,
  });
  return {
    url,
    hooks,
    state,
    tlsRefusals,
    setTrustAnchors(anchorsPem) {
      if (!svid) throw new Error('setTrustAnchors: this WFM does not serve mutual TLS');
      svid.anchorsPem = anchorsPem;
      (server as HttpsServer).setSecureContext(mtlsServerOptions(svid, tlsProfile, decisions));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
