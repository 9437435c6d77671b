// The reference WFM alone in its own process, so its CPU time (process.cpuUsage) is the target's and never the
// client's. Driven over IPC by wfm-process.ts: `start` -> `ready {url}`, `cpu` -> `cpu {user, system}`.
// With `bare`, the same process serves a bare node:https listener instead: the floor of one exchange.
import { createServer } from 'node:https';
import { startListening } from '../protocol/listen.ts';
import { startWfm } from '../reference/wfm/server.ts';
import { resolveProfile, type Profile } from '../spec/profile.ts';

export interface StartMessage {
  type: 'start';
  tls: { cert: string; key: string };
  rootCaPem: string;
  deviceCaPem: string;
  profile: Partial<Profile>;
  /** A bare HTTPS server that reads each body and answers 200 `{}`, as the WFM answers a PUT of capabilities. */
  bare?: boolean;
}

export type ChildMessage =
  { type: 'ready'; url: string } | { type: 'cpu'; user: number; system: number } | { type: 'failed'; message: string };

let service: { url: string; close(): Promise<void> } | undefined;

function reply(message: ChildMessage): void {
  process.send?.(message);
}

process.on('message', (message: StartMessage | { type: 'cpu' }) => {
  if (message.type === 'cpu') return reply({ type: 'cpu', ...process.cpuUsage() });
  const started = message.bare
    ? startBare(message.tls)
    : startWfm({
        tls: message.tls,
        rootCaPem: message.rootCaPem,
        trustedDeviceCaPems: [message.deviceCaPem],
        profile: resolveProfile(message.profile),
      });
  started
    .then((s) => {
      service = s;
      reply({ type: 'ready', url: s.url });
    })
    .catch((err: Error) => reply({ type: 'failed', message: err.message }));
});

// The parent going away (even killed) takes the WFM with it.
process.on('disconnect', () => {
  void (service?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});

/** What node:https costs per exchange and no more: TLS, HTTP/1.1 parsing, the body read, a 200 written. */
async function startBare(tls: StartMessage['tls']): Promise<{ url: string; close(): Promise<void> }> {
  const answer = Buffer.from('{}');
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
    });
  });
  const { url } = await startListening(server, { scheme: 'https' });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
