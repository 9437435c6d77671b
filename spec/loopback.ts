// The kit's one network policy: it listens on and sends traffic to loopback addresses only (127.0.0.0/8, ::1,
// localhost), because its conformance traffic includes hostile inputs and its fleets are load. In spec/ because
// every layer (reference services, simulators, CLI) depends on spec/ and must apply the same rule.
import { isIP } from 'node:net';

/** The rule in the words every refusal uses, wherever it is made (a flag, a redirect, a registry reference). */
export const LOOPBACK_RULE = 'the kit only ever sends traffic to 127.0.0.0/8, ::1 or localhost';
/** The same rule for where the kit's own services listen. */
export const LISTEN_RULE = 'the kit only ever listens on 127.0.0.0/8, ::1 or localhost';

/** Why `host` is refused: one wording for the CLI, the transport, the reference services and lint. */
export function offLoopback(host: string, rule: string = LOOPBACK_RULE): string {
  return `${host} is not on a loopback address; ${rule}`;
}

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
    throw new Error(`${what}: ${offLoopback(url.hostname)}`);
  }
  return url;
}
