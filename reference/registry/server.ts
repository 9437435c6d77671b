// The embedded OCI registry: an in-memory RegistryStore behind node:http or node:https, loopback by default.
import { startListening } from '../../protocol/listen.ts';
import { withRewrites, type Rewrite } from '../faults/rewrite.ts';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createRegistryHandler, type RegistryHandlerOptions } from './handler.ts';
import { RegistryStore } from './store.ts';
import { guardServer } from '../server-guards.ts';

export { createRegistryHandler, type RegistryHandlerOptions } from './handler.ts';
export { RegistryStore } from './store.ts';

export interface StartRegistryOptions extends RegistryHandlerOptions {
  /** DNS names clients reach it by (`wfmck serve --hostname`): a wildcard listen address's URLs name the first. */
  hostnames?: readonly string[];
  /** Defaults to 127.0.0.1: the reference registry is for the kit's own machine. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** PEM certificate chain and key; with them the registry serves HTTPS. */
  tls?: { cert: string; key: string };
  /** Serve an existing store, e.g. one shared with another server. */
  store?: RegistryStore;
  /** A new store's byte quota (blobs, upload sessions, bodies in flight); default store.ts DEFAULT_QUOTA_BYTES. */
  quotaBytes?: number;
  /** The whole request, body included, must arrive within this (default 60 s); else 408. */
  requestTimeoutMs?: number;
  /** Rewrites of its answers (response-level faults of reference/faults/), applied in order. */
  rewrites?: readonly Rewrite[];
}

export interface RunningRegistry {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
  store: RegistryStore;
}

export async function startRegistry(opts: StartRegistryOptions = {}): Promise<RunningRegistry> {
  const store = opts.store ?? new RegistryStore(opts.quotaBytes);
  const handler = withRewrites(createRegistryHandler(store, { ...opts, scheme: opts.tls ? 'https' : 'http' }), opts.rewrites ?? []);
  const requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  // Node checks the deadline every connectionsCheckingInterval (30 s by default): check often enough for it to hold.
  const checking = { connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4))) };
  const server: Server = opts.tls
    ? createHttpsServer({ ...checking, cert: opts.tls.cert, key: opts.tls.key }, handler)
    : createHttpServer(checking, handler);
  // A blob may be large, but it must keep coming: a body that stalls is cut at the deadline (408, OCI error body).
  guardServer(server, {
    requestTimeoutMs,
    errorBody: (status, message) => ({
      contentType: 'application/json',
      body: JSON.stringify({ errors: [{ code: status === 431 || status === 413 ? 'SIZE_INVALID' : 'UNKNOWN', message }] }),
    }),
  });
  const { url } = await startListening(server, {
    scheme: opts.tls ? 'https' : 'http',
    host: opts.host,
    port: opts.port,
    hostnames: opts.hostnames,
  });
  return {
    url,
    store,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
