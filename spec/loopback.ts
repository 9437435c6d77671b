// Loopback addresses (127.0.0.0/8, ::1, localhost): where the kit's own services listen, and what the network policy
// (spec/network-policy.ts) always allows besides the targets the user names. In spec/ because every layer uses it.
import { isIP } from 'node:net';

/** Where the kit's own services listen, in the words every refusal uses. */
export const LISTEN_RULE = 'the kit only ever listens on 127.0.0.0/8, ::1 or localhost';

/** Why `host` is refused: one wording for the CLI, the transport, the reference services and lint. */
export function offLoopback(host: string, rule: string = LISTEN_RULE): string {
  return `${host} is not on a loopback address; ${rule}`;
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}
