// The request handler: route, method and name checks, then the route; every failure becomes an OCI error
// response. Only a genuine bug is a 500, and it is logged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, internalErrorBody, ociError, RegistryError } from './errors.ts';
import { isValidName } from './grammar.ts';
import { readBody, RequestAborted, type Reply } from './http.ts';
import { matchEndpoint, METHODS, splitTarget, type EndpointKind } from './router.ts';
import { DEFAULT_LIMITS, type RegistryLimits, type Route, type RouteDeps } from './context.ts';
import { defaultDecisions, type RegistryDecisions } from './decisions.ts';
import { deleteBlob, getBlob } from './blobs.ts';
import { cancelUpload, closeUpload, patchUpload, startUpload, uploadStatus } from './uploads.ts';
import { deleteManifest, getManifest, putManifest } from './manifests.ts';
import { listTags } from './tags.ts';
import { listReferrers } from './referrers.ts';
import type { RegistryStore } from './store.ts';
import { createTokenAuth, TOKEN_PATH, type TokenAuth, type TokenAuthOptions } from './token-auth.ts';

export interface RegistryHandlerOptions extends Partial<RegistryLimits> {
  /** Replace single decisions, e.g. to build a faulty variant. */
  decisions?: Partial<RegistryDecisions>;
  /** Where genuine bugs (500s) are reported; defaults to console.error. */
  log?: (message: string, error: unknown) => void;
  now?: () => number;
  /** Token authentication (§5) for the repositories it protects; absent, every repository is anonymous. */
  auth?: TokenAuthOptions;
  /** The scheme this handler is served on, for the realm URL of a challenge. */
  scheme?: 'http' | 'https';
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const base: Route = () => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: '{}' });

const ROUTES: Record<EndpointKind, Record<string, Route>> = {
  base: { GET: base, HEAD: base },
  uploads: { POST: startUpload },
  upload: { GET: uploadStatus, PATCH: patchUpload, PUT: closeUpload, DELETE: cancelUpload },
  blob: { GET: getBlob, HEAD: getBlob, DELETE: deleteBlob },
  manifest: { GET: getManifest, HEAD: getManifest, PUT: putManifest, DELETE: deleteManifest },
  tags: { GET: listTags },
  referrers: { GET: listReferrers },
};

function errorReply(error: RegistryError): Reply {
  return { status: error.status, headers: { ...error.headers, 'Content-Type': 'application/json' }, body: errorBody(error.entries) };
}

function selectRoute(req: IncomingMessage): { route: Route; name: string; param: string; query: URLSearchParams; kind: EndpointKind } {
  const { path, query } = splitTarget(req.url ?? '/');
  const endpoint = matchEndpoint(path);
  if (!endpoint) throw ociError(404, 'UNSUPPORTED', 'no such endpoint', { path });
  const method = req.method ?? 'GET';
  const route = ROUTES[endpoint.kind][method];
  if (!route) {
    const allowed = METHODS[endpoint.kind].join(', ');
    throw new RegistryError(405, { code: 'UNSUPPORTED', message: `method ${method} not allowed`, detail: { allowed } }, { Allow: allowed });
  }
  if (endpoint.kind !== 'base' && !isValidName(endpoint.name)) {
    throw ociError(400, 'NAME_INVALID', 'invalid repository name', { name: endpoint.name });
  }
  return { route, name: endpoint.name, param: endpoint.param, query, kind: endpoint.kind };
}

function write(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : (reply.body ?? Buffer.alloc(0));
  res.statusCode = reply.status;
  res.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
  for (const [key, value] of Object.entries(reply.headers ?? {})) res.setHeader(key, value);
  // 204 forbids a Content-Length other than none; every other answer states its length, HEAD included.
  if (reply.status !== 204) res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' || reply.status === 204 ? undefined : body);
}

export function createRegistryHandler(
  store: RegistryStore,
  opts: RegistryHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const deps: RouteDeps = {
    store,
    limits: {
      maxBlobBytes: opts.maxBlobBytes ?? DEFAULT_LIMITS.maxBlobBytes,
      maxManifestBytes: opts.maxManifestBytes ?? DEFAULT_LIMITS.maxManifestBytes,
      uploadTtlMs: opts.uploadTtlMs ?? DEFAULT_LIMITS.uploadTtlMs,
    },
    decisions: { ...defaultDecisions, ...opts.decisions },
    now: opts.now ?? Date.now,
  };
  const log = opts.log ?? ((message, error) => console.error(message, error));
  const auth: TokenAuth | undefined = opts.auth && createTokenAuth(opts.auth, deps.decisions);
  const origin = (req: IncomingMessage) => `${opts.scheme ?? 'http'}://${req.headers.host ?? 'localhost'}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      const target = splitTarget(req.url ?? '/');
      if (auth && target.path === TOKEN_PATH && req.method === 'GET') return write(req, res, await auth.issue(target.query));
      const { route, name, param, query, kind } = selectRoute(req);
      if (auth && kind !== 'base')
        await auth.check(name, WRITES.has(req.method ?? 'GET') ? 'push' : 'pull', req.headers.authorization, origin(req));
      reply = await route(deps, {
        method: req.method ?? 'GET',
        name,
        param,
        query,
        headers: req.headers,
        readBody: (limit, tooLarge, quota) => readBody(req, limit, tooLarge, quota),
      });
    } catch (error) {
      if (error instanceof RequestAborted) return;
      if (!(error instanceof RegistryError)) throw error;
      reply = errorReply(error);
    }
    write(req, res, reply);
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`registry: ${req.method} ${req.url} failed`, error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'Content-Type': 'application/json', 'Docker-Distribution-API-Version': 'registry/2.0' });
      res.end(internalErrorBody());
    });
  };
}
