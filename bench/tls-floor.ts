// The machine's floor for mutual TLS, measured beside the mTLS figure: bare Node TLS 1.3 handshakes with a client
// certificate between this process and a bare server in its own process (tls-floor-server.ts), no HTTP, no SVID
// rules. With a context per device, as each device of a fleet holds its own key and certificate, and with one
// context shared, which no fleet can do but which shows what Node's TLS alone allows. The held connections give the
// RSS a bare mutual-TLS connection costs, the floor of the kit's RSS per device.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { tsxImport } from './wfm-process.ts';

export interface TlsFloorMeasurement {
  connections: number;
  /** Handshakes per second, each device its own SecureContext made at connect (what every fleet device does). */
  handshakesPerSecond: number;
  /** The same with one SecureContext for all: Node's TLS alone, the ceiling on this machine. */
  sharedContextHandshakesPerSecond: number;
  /** CPU per handshake, context per device: this process, and the bare server. */
  clientCpuMsPerHandshake: number;
  serverCpuMsPerHandshake: number;
  /** RSS growth of this process per held connection, context per device, after global.gc(). */
  rssBytesPerConnection: number;
}

/** Measured in a child process (tls-floor-client.ts), which starts the bare server in another. */
export async function measureTlsFloor(connections: number, concurrency: number): Promise<TlsFloorMeasurement> {
  const child = fork(fileURLToPath(new URL('./tls-floor-client.ts', import.meta.url)), [], {
    execArgv: [...tsxImport(), '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    child.send({ connections, concurrency });
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`bench: the TLS floor's client exited ${code} before it measured`);
    });
    const [result] = (await Promise.race([once(child, 'message'), exited])) as [TlsFloorMeasurement];
    return result;
  } finally {
    child.kill();
  }
}
