// Where a fleet may be pointed: loopback only, because a kit's fleet must never load another host; and a quick
// TCP check so an unreachable target is one clear line instead of thousands of connection errors.
import { connect } from 'node:net';
import { isLoopbackHost, offLoopback } from '../../spec/loopback.ts';
import { FleetSpecError } from './spec.ts';

export { isLoopbackHost };

/** The WFM base URL, refused unless http(s) on a loopback address. */
export function loopbackUrl(text: string, flag = '--wfm'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FleetSpecError(`${flag}: "${text}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FleetSpecError(`${flag}: "${text}" is not an http(s) URL`);
  if (!isLoopbackHost(url.hostname)) {
    throw new FleetSpecError(`${flag}: ${offLoopback(url.hostname)}`);
  }
  return url;
}

/** Undefined when a TCP connection opens within the timeout, else the reason it did not. */
export function unreachable(url: URL, timeoutMs = 5000): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host: host === 'localhost' ? '127.0.0.1' : host, port });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer from ${host}:${port} within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) => done(`${err.code ?? 'error'} connecting to ${host}:${port}`));
  });
}
