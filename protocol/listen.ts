// Listening for a test or a service: on loopback unless told otherwise, on any free port unless told one, and the URL
// a client dials built from where it listens (protocol/url-host.ts names a wildcard's reachable host).
import { createServer, type AddressInfo, type Server } from 'node:net';
import { urlHostPart } from './url-host.ts';

export interface Listening {
  port: number;
  /** `scheme://host:port`, no trailing slash. */
  url: string;
}

/** Listens on `host` (default 127.0.0.1) and `port` (default: any free one); rejects on a listen error (EADDRINUSE). */
export async function startListening(
  server: Server,
  opts: { scheme: string; host?: string; port?: number; hostnames?: readonly string[] },
): Promise<Listening> {
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return { port, url: `${opts.scheme}://${urlHostPart(host, opts.hostnames)}:${port}` };
}

/** A loopback port nothing listens on: listened on once, then closed (a refused connection, or a port for a child). */
export async function freePort(): Promise<number> {
  const server = createServer();
  const { port } = await startListening(server, { scheme: 'tcp' });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
