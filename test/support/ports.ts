// A loopback port nobody listens on: a target that refuses connections, or a free port for a server to take.
import { once } from 'node:events';
import { createServer } from 'node:net';

export async function unusedLoopbackPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
