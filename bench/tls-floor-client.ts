// The client side of the TLS floor (tls-floor.ts), in a process of its own so that its RSS is its own: bare Node
// TLS 1.3 handshakes with a client certificate against tls-floor-server.ts, one context per device, then one shared.
// Several run at once as the kit's mTLS workers do; each run starts when the parent says, so they run together.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { connect, createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { nativeLeafIssuer } from '../protocol/native-leaf.ts';
import { benchPki, typescriptImport } from './wfm-process.ts';
import type { FloorClientReport } from './tls-floor.ts';
import { parentSays } from './in-step.ts';

/** The shared-context run only gives a rate: a few seconds of it is enough. */
const SHARED_CONNECTIONS = 2_000;

process.once('message', ({ connections, concurrency }: { connections: number; concurrency: number }) => {
  void measure(connections, concurrency);
});

const send = (report: FloorClientReport) => process.send!(report);

async function measure(connections: number, concurrency: number): Promise<void> {
  // The bench's own PKI: the server's certificate from its root, the devices' leaves from its device CA.
  const { root, server, deviceCa } = await benchPki();
  const mint = nativeLeafIssuer(deviceCa);
  const leaves = Array.from({ length: connections }, (_, i) => mint({ commonName: `floor-${i}`, usage: ['client'] }));
  const child = fork(fileURLToPath(new URL('./tls-floor-server.ts', import.meta.url)), [], {
    execArgv: typescriptImport(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    child.send({ cert: server.certPem, key: server.keyPem, ca: deviceCa.certPem });
    const [{ port }] = (await once(child, 'message')) as [{ port: number }];
    const serverCpuUs = async () => {
      child.send('cpu');
      const [{ cpuUs }] = (await once(child, 'message')) as [{ cpuUs: number }];
      return cpuUs;
    };
    const run = async (count: number, contextOf: (i: number) => SecureContext) => {
      const sockets: TLSSocket[] = [];
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            const socket = connect({
              port,
              host: '127.0.0.1',
              servername: 'localhost',
              secureContext: contextOf(next++),
              minVersion: 'TLSv1.3',
            });
            sockets.push(socket);
            await new Promise<void>((resolve, reject) => {
              socket.once('data', () => resolve());
              socket.once('error', reject);
            });
          }
        }),
      );
      return { sockets, seconds: (performance.now() - t0) / 1000 };
    };

    // The per-device run first, in a process that has held no connection yet: connections made and dropped before
    // would leave freed memory the next run reuses, and the RSS per connection would read low (44 KB warm against
    // 70-85 KB cold here at 2,000-10,000 connections).
    send({ type: 'ready' });
    await parentSays('own');
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const [cpu0, serverCpu0] = [process.cpuUsage(), await serverCpuUs()];
    const own = await run(connections, (i) => createSecureContext({ cert: leaves[i]!.certPem, key: leaves[i]!.keyPem, ca: root.certPem }));
    const [cpu, serverCpu] = [process.cpuUsage(cpu0), (await serverCpuUs()) - serverCpu0];
    global.gc?.();
    const rssAfter = process.memoryUsage().rss;
    for (const s of own.sockets) s.destroy();
    send({
      type: 'own',
      connections,
      seconds: own.seconds,
      cpuUs: cpu.user + cpu.system,
      serverCpuUs: serverCpu,
      rssGrowth: rssAfter - rssBefore,
    });

    await parentSays('shared');
    const shared = createSecureContext({ cert: leaves[0]!.certPem, key: leaves[0]!.keyPem, ca: root.certPem });
    const sharedCount = Math.min(connections, SHARED_CONNECTIONS);
    const sharedRun = await run(sharedCount, () => shared);
    for (const s of sharedRun.sockets) s.destroy();
    send({ type: 'shared', connections: sharedCount, seconds: sharedRun.seconds });
  } finally {
    child.kill();
  }
}
