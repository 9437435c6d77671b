// The machine's floor for mutual TLS, measured beside the mTLS figure: bare Node TLS 1.3 handshakes with a client
// certificate between client processes and bare servers in processes of their own (tls-floor-server.ts), no HTTP, no SVID
// rules. With a context per device, as each device of a fleet holds its own key and certificate, and with one
// context shared, which no fleet can do but which shows what Node's TLS alone allows. The held connections give the
// RSS a bare mutual-TLS connection costs, the floor of the kit's RSS per device.
import { forkInStep, sum } from './in-step.ts';

export interface TlsFloorMeasurement {
  /** In all: each client process held its share at once. */
  connections: number;
  /** Handshakes per second, each device its own SecureContext made at connect (what every fleet device does). */
  handshakesPerSecond: number;
  /** The same with one SecureContext for all: Node's TLS alone, the ceiling on this machine. */
  sharedContextHandshakesPerSecond: number;
  /** CPU per handshake, context per device: this process, and the bare server. */
  clientCpuMsPerHandshake: number;
  serverCpuMsPerHandshake: number;
  /** RSS growth of the client processes (summed) per held connection, context per device, after global.gc(). */
  rssBytesPerConnection: number;
}

/** What each floor client reports, in order (tls-floor-client.ts). */
export type FloorClientReport =
  | { type: 'ready' }
  | { type: 'own'; connections: number; seconds: number; cpuUs: number; serverCpuUs: number; rssGrowth: number }
  | { type: 'shared'; connections: number; seconds: number };

/**
 * Measured in child processes (tls-floor-client.ts), one per share of the connections, each with a bare server in
 * a process of its own, as the kit's mTLS workers each hold theirs against a WFM of their own. The clients run each
 * phase together: their rate is all their connections over the slowest one's time.
 */
export async function measureTlsFloor(shares: number[], concurrency: number): Promise<TlsFloorMeasurement> {
  const clients = forkInStep<FloorClientReport>(
    new URL('./tls-floor-client.ts', import.meta.url),
    shares.length,
    "the TLS floor's client",
    ['--expose-gc'],
  );
  try {
    clients.children.forEach((c, j) => c.send({ connections: shares[j], concurrency }));
    await clients.all('ready');
    const own = await clients.step('own', 'own');
    const shared = await clients.step('shared', 'shared');
    const connections = sum(own.map((o) => o.connections));
    const ms = (us: number) => Math.round(us / connections / 10) / 100;
    return {
      connections,
      handshakesPerSecond: Math.round(connections / Math.max(...own.map((o) => o.seconds))),
      sharedContextHandshakesPerSecond: Math.round(sum(shared.map((x) => x.connections)) / Math.max(...shared.map((x) => x.seconds))),
      clientCpuMsPerHandshake: ms(sum(own.map((o) => o.cpuUs))),
      serverCpuMsPerHandshake: ms(sum(own.map((o) => o.serverCpuUs))),
      rssBytesPerConnection: Math.round(sum(own.map((o) => o.rssGrowth)) / connections),
    };
  } finally {
    clients.kill();
  }
}
