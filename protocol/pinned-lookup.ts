// curl's --resolve HOST:PORT:ADDR: a name answered with a fixed address. Only the lookup changes: a socket opened to the
// NAME still sends it as SNI and TLS still checks the certificate against it, so a pinned name is certified as itself.
// Node's lookup never sees the port, so pins are matched by name; two pins of one name must agree on the address.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

export interface Pin {
  host: string;
  port: number;
  address: string;
}

/** The signature of node's dns.lookup as net, tls and undici's `connect: { lookup }` call it. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

const NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A DNS name (lowercase letters, digits, hyphens, dots), not an IP address. */
export const isHostName = (s: string): boolean => NAME.test(s) && isIP(s) === 0;

/** One `HOST:PORT:ADDR` (ADDR an IP address, IPv6 bare or in brackets); throws what is wrong with it. */
export function parsePin(text: string): Pin {
  const m = /^([^:]+):(\d{1,5}):(.+)$/.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not HOST:PORT:ADDR (curl's --resolve form)`);
  const host = m[1]!.toLowerCase();
  const port = Number(m[2]);
  const address = m[3]!.replace(/^\[(.*)\]$/, '$1');
  if (!isHostName(host)) throw new Error(`"${m[1]}" is not a host name (an address needs no pin)`);
  if (port < 1 || port > 65_535) throw new Error(`${m[2]} is not a port (1-65535)`);
  if (isIP(address) === 0) throw new Error(`"${m[3]}" is not an IP address`);
  return { host, port, address };
}

/** Pins checked as one set: a name pinned twice must go to one address (the lookup cannot tell the ports apart). */
export function checkedPins(pins: readonly Pin[]): Pin[] {
  for (const p of pins) {
    const other = pins.find((q) => q.host === p.host && q.address !== p.address);
    if (other) throw new Error(`${p.host} is pinned to both ${p.address} and ${other.address}: pins are matched by name, give one address`);
  }
  return [...pins];
}

export const pinText = (p: Pin): string => `${p.host}:${p.port}:${p.address.includes(':') ? `[${p.address}]` : p.address}`;

/** A lookup that answers pinned names from `pins`, and every other name as dns.lookup does. */
export function pinnedLookup(pins: readonly Pin[]): LookupFunction {
  return (hostname, options, callback) => {
    const pin = pins.find((p) => p.host === hostname.toLowerCase());
    if (!pin) return void dnsLookup(hostname, options, callback as never);
    const family = isIP(pin.address);
    // net asks for every address (`all`) when it races IPv4 and IPv6 (autoSelectFamily): one answer either way.
    process.nextTick(() => (options.all ? callback(null, [{ address: pin.address, family }]) : callback(null, pin.address, family)));
  };
}

let installed: readonly Pin[] = [];

/** The pins of this process's run (the CLI's configuration, or a Playwright worker's run context). */
export function installPins(pins: readonly Pin[]): void {
  installed = checkedPins(pins);
}

export function installedPins(): readonly Pin[] {
  return installed;
}

/** The process's lookup: every socket the kit opens to a target passes it, so an installed pin reaches them all. */
export const lookup: LookupFunction = (hostname, options, callback) => pinnedLookup(installed)(hostname, options, callback);
