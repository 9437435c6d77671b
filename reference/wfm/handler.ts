// The reference WFM as one node:http request listener: route, read the body under its limits, answer. No input
// becomes a 5xx: refusals are WfmErrors, and anything else is a bug that is logged and answered 500.
import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import { X509Certificate } from 'node:crypto';
import type { WfmContext, WfmRequest } from './context.ts';
import { cleanWfmDecisions, type WfmDecisions } from './decisions/index.ts';
import { createHooks, type WfmHooks } from './hooks.ts';
import { RequestAborted, WfmError, readBody, refusalReply, type BodyLimits, type Reply } from './http.ts';
import { decodeParams, matchRoute, routesFor } from './router.ts';
import { stateView, type WfmStateView } from './state-view.ts';
import { RequestBudget, type RateLimit } from './rate-limit.ts';
import type { ExchangeRecorder } from './recorder.ts';
import { WfmStore } from './store.ts';

export interface WfmHandlerOptions {
  /** PEM of the WFM root CA the Certificate API serves (P2). */
  rootCaPem: string;
  /** Client certificates issued by one of these are trusted at onboarding. */
  trustedDeviceCaPems: string[];
  profile?: Profile;
  /** Default 1 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Default 10 s; a body that takes longer gets 408. */
  bodyTimeoutMs?: number;
  /** The scheme the handler is served on, needed to rebuild the signed `@target-uri`. */
  scheme: 'http' | 'https';
  /** What this instance decides; default the clean service's (a faulty variant replaces single decisions). */
  decisions?: WfmDecisions;
  /** Per-client request budget (by SPIFFE ID, else by address); past it, 429 with Retry-After. None by default. */
  rateLimit?: RateLimit;
  /** Judging mode (device persona): every exchange is kept by client. */
  recorder?: ExchangeRecorder;
  /** P10: the SPIFFE ID the request's connection proved at the TLS handshake. */
  peerOf?: (socket: Socket) => string | undefined;
  /** P10: the SHA-256 fingerprint of the certificate that connection showed, read at the handshake. */
  peerCertificateOf?: (socket: Socket) => string | undefined;
}

export interface WfmHandler {
  listener: RequestListener;
  hooks: WfmHooks;
  state: WfmStateView;
}

export function createWfmHandler(opts: WfmHandlerOptions): WfmHandler {
  const profile = opts.profile ?? resolveProfile();
  const store = new WfmStore();
  const ctx: WfmContext = {
    store,
    profile,
    rootCaPem: opts.rootCaPem,
    trustedDeviceCas: opts.trustedDeviceCaPems.map((pem) => new X509Certificate(pem)),
    decisions: opts.decisions ?? cleanWfmDecisions,
  };
  const d = ctx.decisions;
  const limits: BodyLimits = { maxBytes: opts.maxBodyBytes ?? 1024 * 1024, timeoutMs: opts.bodyTimeoutMs ?? 10_000 };
  const routes = routesFor(profile, d);
  const budget = opts.rateLimit && new RequestBudget(opts.rateLimit);

  const answer = async (req: IncomingMessage): Promise<Reply> => {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) throw new WfmError(400, 'request target must be an absolute path');
    const rawPath = target.split('?')[0]!;
    const match = matchRoute(routes, req.method ?? 'GET', rawPath);
    if (match.kind === 'not-found') throw new WfmError(404, `no such path: ${rawPath.slice(0, 200)}`);
    if (match.kind === 'method-not-allowed') {
      throw new WfmError(405, `method ${req.method} not allowed here`, undefined, { allow: match.allow.join(', ') });
    }
    const peer = opts.peerOf?.(req.socket);
    const wait = budget?.guards(req.method ?? 'GET', rawPath) ? budget.take(peer ?? req.socket.remoteAddress ?? '') : undefined;
    if (wait !== undefined) {
      const { requests, windowMs } = opts.rateLimit!;
      throw new WfmError(
        429,
        `too many polls from this client: over ${requests} in ${windowMs / 1000} s`,
        undefined,
        d.sendsRetryAfter ? { 'retry-after': String(wait) } : {},
      );
    }
    const body = await readBody(req, limits);
    const request: WfmRequest = {
      method: req.method!,
      targetUri: `${opts.scheme}://${(req.headers.host ?? '').toLowerCase()}${target}`,
      headers: req.headers,
      params: decodeParams(match.rawParams),
      body,
      // Read at the handshake, not per request: rendering the peer certificate cost ~70 µs of CPU per request under load.
      ...(peer !== undefined && { peer, peerCertificate: opts.peerCertificateOf?.(req.socket) }),
    };
    bodies?.set(req, body);
    return match.handler(ctx, request);
  };

  // Judging mode only: the body each request carried, for the recorder (one refused before it was read has none).
  const recorder = opts.recorder;
  const bodies = recorder && new WeakMap<IncomingMessage, Buffer>();
  const listener: RequestListener = (req, res) => {
    answer(req)
      .catch((err: unknown) => refusal(profile, d, err, req))
      .then((reply) => {
        if (!reply) return;
        send(res, reply, d);
        recorder?.recordAnswer(req, reply, bodies!.get(req), opts.peerOf?.(req.socket));
      })
      .catch((err: unknown) => console.error('reference WFM: cannot answer:', err));
  };
  return { listener, hooks: createHooks(store, profile, d), state: stateView(store) };
}

function refusal(profile: Profile, decisions: WfmDecisions, err: unknown, req: IncomingMessage): Reply | undefined {
  if (err instanceof WfmError) return refusalReply(profile, decisions, err);
  if (err instanceof RequestAborted) return undefined;
  console.error(`reference WFM: bug answering ${req.method} ${req.url}:`, err);
  return refusalReply(profile, decisions, new WfmError(500, 'internal error in the reference WFM (logged)'));
}

function send(res: ServerResponse, reply: Reply, decisions: WfmDecisions): void {
  if (res.headersSent || res.destroyed) return;
  const body = reply.body === undefined ? undefined : Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body);
  const headers: Record<string, string | number> = { ...reply.headers };
  const bodiless = reply.status === 204 || reply.status === 304;
  if (!bodiless) headers['content-length'] = body?.length ?? 0;
  // An HTTP/1.0 answer is written past Node's HTTP/1.1 writer, and the connection closes.
  if (decisions.statusLineVersion === 'HTTP/1.0' && res.socket) {
    const head = [
      `HTTP/1.0 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      'connection: close',
    ];
    res.socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), bodiless || !body ? Buffer.alloc(0) : body]));
    return;
  }
  res.writeHead(reply.status, headers);
  res.end(bodiless ? undefined : body);
}
