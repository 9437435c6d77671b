// The reference WFM, the kit's embedded default: the Device API of interfaces.md §4.1-§4.4 with P2-P4 on loopback.
import { withRewrites } from '../faults/rewrite.ts';
import type { FaultDefinition } from '../faults/types.ts';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Profile } from '../../spec/profile.ts';
import { createWfmHandler } from './handler.ts';
import type { WfmHooks } from './hooks.ts';
import type { WfmStateView } from './state-view.ts';

export { createWfmHandler, type WfmHandler, type WfmHandlerOptions } from './handler.ts';
export type { WfmHooks } from './hooks.ts';
export type { WfmStateView } from './state-view.ts';

export interface StartWfmOptions {
  /** Defaults to 127.0.0.1: the reference WFM is for the kit's own machine. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** PEM certificate chain and key; with them the WFM serves HTTPS. */
  tls?: { cert: string; key: string };
  /** PEM of the WFM root CA served by the Certificate API (P2). */
  rootCaPem: string;
  /** Client certificates chaining to one of these are trusted at onboarding. */
  trustedDeviceCaPems: string[];
  profile?: Profile;
  /** Default 1 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Default 10 s; a request body that stalls longer gets 408. */
  bodyTimeoutMs?: number;
  /** Faults of reference/faults/ to switch on (a faulty variant that breaks exactly those rules). */
  faults?: FaultDefinition[];
}

export interface WfmService {
  /** Origin without a trailing slash, e.g. https://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
  hooks: WfmHooks;
  /** Read-only snapshots for the kit's own tests. */
  state: WfmStateView;
}

export async function startWfm(opts: StartWfmOptions): Promise<WfmService> {
  const handler = createWfmHandler({ ...opts, scheme: opts.tls ? 'https' : 'http' });
  const { hooks, state } = handler;
  const listener = withRewrites(handler.listener, opts.faults ?? []);
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createHttpServer(listener);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${hostPart}:${port}`,
    hooks,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
