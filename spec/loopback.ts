// The kit's one network policy: it listens on and sends traffic to loopback addresses only (127.0.0.0/8, ::1,
// localhost), because its conformance traffic includes hostile inputs and its fleets are load. In spec/ because
// every layer (reference services, simulators, CLI) depends on spec/ and must apply the same rule.
import { isIP } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/** An http(s) URL on a loopback host, or an Error whose message names `what` and the rule. */
export function parseLoopbackUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what}: "${text}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${what}: "${text}" is not an http(s) URL`);
  if (!isLoopbackHost(url.hostname)) {
    throw new Error(`${what}: only loopback addresses (127.0.0.0/8, ::1, localhost) are ever targets, not "${url.hostname}"`);
  }
  return url;
}
