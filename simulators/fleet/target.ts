// Whether a fleet's target answers: a quick TCP check, so an unreachable target is one clear line instead of
// thousands of connection errors. Where a fleet may be pointed is the network policy's business (spec/network-policy.ts).
import { connect } from 'node:net';
import { lookup } from '../../protocol/pinned-lookup.ts';

/** Undefined when a TCP connection opens within the timeout, else the reason it did not. */
export function unreachable(url: URL, timeoutMs = 5000): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host: host === 'localhost' ? '127.0.0.1' : host, port, lookup });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer from ${host}:${port} within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) => done(`${err.code ?? 'error'} connecting to ${host}:${port}`));
  });
}
