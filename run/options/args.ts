// Value checks shared by every option and setting (run/options/options.ts, run/options/config.ts). Each takes a raw value (a flag's
// string, an env variable, a YAML node) and the folder relative paths are read from, and returns the checked value or
// throws an Error saying what is wrong; the caller names the option (`--wfm: ...`). A check that names the option
// itself (the loopback rule of spec/loopback.ts) is given its label.
import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { delimiter, resolve } from 'node:path';
import { isLoopbackHost, LISTEN_RULE, offLoopback } from '../../spec/loopback.ts';
import { parseTargetUrl } from '../../spec/network-policy.ts';
import { parseShard } from '../../simulators/fleet/shard.ts';

export type Parse = (raw: unknown, base: string, label: string) => unknown;

export function text(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw new Error(`expected a non-empty string, not ${JSON.stringify(raw)}`);
  return raw;
}

export function bool(raw: unknown): boolean {
  if (raw === true || raw === 'true' || raw === '1') return true;
  if (raw === false || raw === 'false' || raw === '0') return false;
  throw new Error(`expected true or false, not ${JSON.stringify(raw)}`);
}

export function oneOf<T extends string>(...allowed: readonly T[]): (raw: unknown) => T {
  return (raw) => {
    if (!(allowed as readonly unknown[]).includes(raw)) throw new Error(`must be one of ${allowed.join(', ')}, not ${JSON.stringify(raw)}`);
    return raw as T;
  };
}

export function pattern(re: RegExp, what: string): Parse {
  return (raw) => {
    if (!re.test(text(raw))) throw new Error(`must be ${what}, not ${JSON.stringify(raw)}`);
    return raw;
  };
}

/** Profile P1: the vendor token of media types, paths and annotation keys. */
export const vendorToken = pattern(/^[a-z0-9]+$/, 'lowercase letters and digits');

export function integer(raw: unknown): number {
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new Error(`expected an integer, not ${JSON.stringify(raw)}`);
  return n;
}

export function positiveInt(raw: unknown): number {
  const n = integer(raw);
  if (n < 1) throw new Error(`must be at least 1, not ${n}`);
  return n;
}

/** A TCP port to listen on; 0 (the default) takes any free one. */
export function portNumber(raw: unknown): number {
  const n = integer(raw);
  if (n < 0 || n > 65535) throw new Error(`must be a port 0-65535 (0: any free port), not ${n}`);
  return n;
}

/** fast-check seeds are 32-bit integers. */
export function seed(raw: unknown): number {
  const n = integer(raw);
  if (n < -(2 ** 31) || n > 2 ** 31 - 1) throw new Error(`must be a 32-bit integer, not ${n}`);
  return n;
}

export function shardSpec(raw: unknown): { index: number; total: number } {
  const shard = parseShard(text(raw));
  if (!shard) throw new Error(`expected i/n with 1 <= i <= n, not ${JSON.stringify(raw)}`);
  return shard;
}

export function regex(raw: unknown): string {
  try {
    new RegExp(text(raw));
  } catch (e) {
    throw new Error(`not a regular expression: ${(e as Error).message}`);
  }
  return raw as string;
}

/** A path as given, resolved against `base`; whether it exists is for the command to find out. */
export function path(raw: unknown, base: string): string {
  return resolve(base, text(raw));
}

export function file(raw: unknown, base: string): string {
  const p = resolve(base, text(raw));
  if (!existsSync(p)) throw new Error(`no such file ${p}`);
  if (statSync(p).isDirectory()) throw new Error(`${p} is a folder, not a file`);
  return p;
}

/** A file that exists, kept as it was written (for output that names it as the user did). */
export function givenFile(raw: unknown, base: string): string {
  file(raw, base);
  return raw as string;
}

export function folder(raw: unknown, base: string): string {
  const p = resolve(base, text(raw));
  if (!existsSync(p)) throw new Error(`no such folder ${p}`);
  if (!statSync(p).isDirectory()) throw new Error(`${p} is a file, not a folder`);
  return p;
}

/** Files from a YAML list, repeated flags, or an env variable of paths separated as PATH is. */
export function files(raw: unknown, base: string): string[] {
  const list = typeof raw === 'string' ? raw.split(delimiter).filter(Boolean) : raw;
  if (!Array.isArray(list)) throw new Error('expected a list of files');
  return list.map((f) => file(f, base));
}

/** A target the user names: an http(s) URL on any host (spec/network-policy.ts then allows it), without a trailing slash. */
export function url(raw: unknown, _base: string, label: string): string {
  return parseTargetUrl(text(raw), label).href.replace(/\/$/, '');
}

/** URLs from a YAML list or a comma-separated string. */
export function urls(raw: unknown, base: string, label: string): string[] {
  const list =
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : raw;
  if (!Array.isArray(list) || list.length === 0) throw new Error('expected a list of URLs');
  return list.map((u) => url(u, base, label));
}

/** Where the kit's own services listen: a loopback address, `localhost` read as 127.0.0.1. */
export function listenAddress(raw: unknown, _base: string, label: string): string {
  const host = text(raw);
  if (host === 'localhost') return '127.0.0.1';
  if (isLoopbackHost(host)) return host;
  // A host no URL can hold is no address at all; any other is refused in spec/loopback.ts's words.
  if (!URL.canParse(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`))
    throw new Error(`"${host}" is not an IP address`);
  throw new Error(`${label}: ${offLoopback(host, LISTEN_RULE)}`);
}

/** `wfmck serve --listen`: any IP address of this machine (a pod's, 0.0.0.0 for all); `localhost` read as 127.0.0.1. */
export function anyListenAddress(raw: unknown): string {
  const host = text(raw).replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return '127.0.0.1';
  if (isIP(host) === 0) throw new Error(`"${host}" is not an IP address`);
  return host;
}

/** `label: message`, once: a check that already named the option keeps its own words. */
export function labelled(label: string, err: unknown): string {
  const message = (err as Error).message;
  return message.startsWith(`${label}: `) ? message : `${label}: ${message}`;
}

/** Runs one check with its label: the value, or an Error `label: what is wrong`. */
export function checked(parse: Parse, raw: unknown, base: string, label: string): unknown {
  try {
    return parse(raw, base, label);
  } catch (e) {
    throw new Error(labelled(label, e));
  }
}
