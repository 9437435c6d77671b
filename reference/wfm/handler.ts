// The reference WFM as one node:http request listener: route, read the body under its limits, answer. No input
// becomes a 5xx: refusals are WfmErrors, and anything else is a bug that is logged and answered 500.
import type { FaultDefinition } from '../faults/types.ts';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import { x509 } from '../../spec/x509.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { createHooks, type WfmHooks } from './hooks.ts';
import { RequestAborted, WfmError, errorReply, readBody, type BodyLimits, type Reply } from './http.ts';
import { decodeParams, matchRoute, routesFor } from './router.ts';
import { stateView, type WfmStateView } from './state-view.ts';
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
  /** Behaviour-level faults (reference/faults/) this instance breaks. */
  faults?: FaultDefinition[];
}

export interface WfmHandler {
  listener: RequestListener;
  hooks: WfmHooks;
  state: WfmStateView;
}

export function createWfmHandler(opts: WfmHandlerOptions): WfmHandler {
  const profile = opts.profile ?? resolveProfile();
  if (profile.deviceAuth === 'mtls') throw new Error('reference WFM: deviceAuth "mtls" is not implemented yet');
  const store = new WfmStore();
  const ctx: WfmContext = {
    store,
    profile,
    rootCaPem: opts.rootCaPem,
    trustedDeviceCas: opts.trustedDeviceCaPems.map((pem) => new x509.X509Certificate(pem)),
    faults: new Set((opts.faults ?? []).map((f) => f.id)),
  };
  const limits: BodyLimits = { maxBytes: opts.maxBodyBytes ?? 1024 * 1024, timeoutMs: opts.bodyTimeoutMs ?? 10_000 };
  const routes = routesFor(profile);

  const answer = async (req: IncomingMessage): Promise<Reply> => {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) return errorReply(400, 'request target must be an absolute path');
    const rawPath = target.split('?')[0]!;
    const match = matchRoute(routes, req.method ?? 'GET', rawPath);
    if (match.kind === 'not-found') return errorReply(404, `no such path: ${rawPath.slice(0, 200)}`);
    if (match.kind === 'method-not-allowed') {
      return errorReply(405, `method ${req.method} not allowed here`, undefined, { allow: match.allow.join(', ') });
    }
    const body = await readBody(req, limits);
    const request: WfmRequest = {
      method: req.method!,
      targetUri: `${opts.scheme}://${(req.headers.host ?? '').toLowerCase()}${target}`,
      headers: req.headers,
      params: decodeParams(match.rawParams),
      body,
    };
    return match.handler(ctx, request);
  };

  const listener: RequestListener = (req, res) => {
    answer(req)
      .catch((err: unknown) => refusal(err, req))
      .then((reply) => reply && send(res, reply))
      .catch((err: unknown) => console.error('reference WFM: cannot answer:', err));
  };
  return { listener, hooks: createHooks(store, profile.vendor, ctx.faults), state: stateView(store) };
}

function refusal(err: unknown, req: IncomingMessage): Reply | undefined {
  if (err instanceof WfmError) return errorReply(err.status, err.message, err.details, err.headers);
  if (err instanceof RequestAborted) return undefined;
  console.error(`reference WFM: bug answering ${req.method} ${req.url}:`, err);
  return errorReply(500, 'internal error in the reference WFM (logged)');
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const body = reply.body === undefined ? undefined : Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body);
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.status !== 204 && reply.status !== 304) headers['content-length'] = body?.length ?? 0;
  res.writeHead(reply.status, headers);
  res.end(reply.status === 204 || reply.status === 304 ? undefined : body);
}
