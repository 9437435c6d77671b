// Argument checks shared by the commands; each failure is a UsageError (exit 2) with a one-line reason.
import { isLoopbackHost } from '../spec/loopback.ts';
import { UsageError } from './usage.ts';

/** Only loopback addresses are ever served on by the kit's own services: `localhost` reads as 127.0.0.1. */
export function loopbackAddress(host: string): string {
  if (host === 'localhost') return '127.0.0.1';
  if (isLoopbackHost(host)) return host;
  throw new Error(`must be a loopback address (127.0.0.0/8 or ::1), not "${host}"`);
}

/** `--host` of a command: a loopback address, else a usage error. */
export function loopbackHost(host: string): string {
  try {
    return loopbackAddress(host);
  } catch (e) {
    throw new UsageError(`--host ${(e as Error).message}`);
  }
}

export function port(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${flag} takes a port number 0-65535, not "${String(value)}"`);
  return n;
}

/** A flag's value when it is one of `allowed`; undefined when the flag was not given. */
export function oneOfFlag<T extends string>(value: unknown, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  throw new UsageError(`${flag} is ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, not "${String(value)}"`);
}
