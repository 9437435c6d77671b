// FleetSpec: what a fleet run simulates and how hard it pushes. One typed object; flags > fleet file > defaults.
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { isFaultName, type MisbehaviourMix } from '../data/misbehaviour.ts';
import type { QuantityFormat } from '../../spec/rules/quantity.ts';
import { DEFAULT_TIMEOUT_MS } from '../transport/limits.ts';
import { parseShard } from './shard.ts';
import { parseThreshold } from './thresholds.ts';
import { parseStages, type Stage } from './stages.ts';

export interface Shard {
  /** 0-based; written `i/n` with i from 1, as Playwright's --shard. */
  index: number;
  count: number;
}

export interface FleetSpec {
  /** Plain devices. */
  devices: number;
  seeThruGateways: number;
  opaqueGateways: number;
  /** Children per gateway (and per intermediate see-thru gateway). */
  children: number;
  /** See-thru levels below a gateway: 1 = `gw/child`, 2 = `gw/mid/leaf`. */
  depth: number;
  /** Share of see-thru gateways that also host workloads (0..1). */
  hostsWorkloads: number;
  /** Probability per fault knob, e.g. `{ crashingContainer: 0.05 }`. */
  faults: MisbehaviourMix;
  /** Requests per second across the whole fleet (token bucket); 0 = no limit. */
  rate: number;
  /** Token bucket size: requests allowed at once after a quiet spell. */
  burst: number;
  /** Seconds from the start of the run during which started devices keep ticking. */
  duration: number;
  /** Seconds between two ticks of one device. */
  tickInterval: number;
  /** Devices starting or ticking at the same time. */
  concurrency: number;
  seed: number;
  shard: Shard;
  /** First part of every top-level deviceId. */
  idPrefix: string;
  /** P8 form of memory and storage. */
  quantityFormat: QuantityFormat;
  /** Deployments per workload-hosting device; unset: 1 when the fleet can assign them (embedded or a hook), else 0. */
  deployments?: number;
  /** Multiplies simulated waits (component timeout, slow install), so a 5-minute compose timeout takes 300 ms. */
  timeScale: number;
  /** Milliseconds one request may take, body included, before it fails with WFMCK_E_TIMEOUT. */
  timeout: number;
  /** Pass/fail thresholds (thresholds.ts), as written: `p95<200ms`, `errors<0.1%`. */
  thresholds: string[];
  /** Ramping stages (stages.ts): how many devices have started by when; none: as fast as concurrency allows. */
  stages: Stage[];
}

/** A usage-level error (exit 2) that names the key or flag at fault. */
export class FleetSpecError extends Error {
  readonly code = 'WFMCK_E_USAGE_FLEET';
}

/** A fleet's simulated waits run a thousand times faster than real ones by default. */
export const DEFAULT_TIME_SCALE = 0.001;

/** Devices one see-thru gateway may carry: its description is held whole while it runs. */
export const MAX_BEHIND_GATEWAY = 10_000;

type Parser = (value: unknown, key: string) => unknown;

const count: Parser = (v, key) => wholeNumber(v, key, 0);
const FIELDS: Record<keyof FleetSpec, { parse: Parser; fallback: () => unknown }> = {
  devices: { parse: count, fallback: () => 10 },
  seeThruGateways: { parse: count, fallback: () => 0 },
  opaqueGateways: { parse: count, fallback: () => 0 },
  children: { parse: count, fallback: () => 2 },
  depth: { parse: (v, k) => wholeNumber(v, k, 1), fallback: () => 1 },
  hostsWorkloads: { parse: (v, k) => ratio(v, k), fallback: () => 0.5 },
  faults: { parse: faultMix, fallback: () => ({}) },
  rate: { parse: (v, k) => decimal(v, k, 0), fallback: () => 0 },
  burst: { parse: (v, k) => wholeNumber(v, k, 1), fallback: () => 50 },
  duration: { parse: (v, k) => decimal(v, k, 0), fallback: () => 10 },
  tickInterval: { parse: (v, k) => decimal(v, k, 0.05), fallback: () => 1 },
  concurrency: { parse: (v, k) => wholeNumber(v, k, 1), fallback: () => 64 },
  seed: { parse: (v, k) => wholeNumber(v, k, 0), fallback: () => randomInt(2 ** 31) },
  shard: { parse: shard, fallback: () => ({ index: 0, count: 1 }) },
  idPrefix: { parse: idPrefix, fallback: () => 'wfmck' },
  quantityFormat: { parse: quantityFormat, fallback: () => 'spaced' },
  deployments: { parse: count, fallback: () => undefined },
  timeScale: { parse: (v, k) => decimal(v, k, 0), fallback: () => DEFAULT_TIME_SCALE },
  timeout: { parse: (v, k) => wholeNumber(v, k, 1), fallback: () => DEFAULT_TIMEOUT_MS },
  thresholds: { parse: thresholdList, fallback: () => [] },
  stages: {
    parse: (v, k) => {
      try {
        return parseStages(v);
      } catch (e) {
        throw new FleetSpecError(`${k}: ${(e as Error).message}`);
      }
    },
    fallback: () => [],
  },
};

/** Each threshold checked as it is given (a typo is a usage error before the fleet starts), kept as written. */
function thresholdList(value: unknown, key: string): string[] {
  const list = (Array.isArray(value) ? value.flat() : [value]).map((v) => {
    if (typeof v !== 'string') throw new FleetSpecError(`${key}: each threshold is a string like "p95<200ms", not ${JSON.stringify(v)}`);
    return v;
  });
  return list.map((t) => {
    try {
      return parseThreshold(t).source;
    } catch (e) {
      throw new FleetSpecError(`${key}: ${(e as Error).message}`);
    }
  });
}

export const FLEET_KEYS = Object.keys(FIELDS) as (keyof FleetSpec)[];

/**
 * A fleet file's newer name for a setting, as its flag has (`misbehaviour:` as --misbehaviour); the setting's own key,
 * its old spelling, still works. --help shows the newer name (run/options/fleet-settings.ts).
 */
export const FILE_KEY_NAMES: Partial<Record<keyof FleetSpec, string>> = { faults: 'misbehaviour' };

/** A setting's default, as `wfmck fleet --help` shows it (run/options/fleet-settings.ts). */
export function fleetDefault(key: keyof FleetSpec): unknown {
  return FIELDS[key].fallback();
}

/** Checks every key of a partial spec (from a file or flags); `name` says where a key came from in errors. */
export function parseFleetInput(input: Record<string, unknown>, name: (key: string) => string): Partial<FleetSpec> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const field = FIELDS[key as keyof FleetSpec];
    if (!field) throw new FleetSpecError(`${name(key)} is not a fleet setting (known: ${FLEET_KEYS.join(', ')}; ${renamedKeys()})`);
    out[key] = field.parse(value, name(key));
  }
  return out as Partial<FleetSpec>;
}

/** Layers (later wins) over the defaults, then checks what only the whole spec can show. */
export function resolveFleetSpec(...layers: Partial<FleetSpec>[]): FleetSpec {
  const spec = Object.fromEntries(FLEET_KEYS.map((k) => [k, FIELDS[k].fallback()])) as unknown as FleetSpec;
  for (const layer of layers)
    for (const [k, v] of Object.entries(layer)) if (v !== undefined) (spec as unknown as Record<string, unknown>)[k] = v;
  if (spec.opaqueGateways > 0 && spec.children < 1)
    throw new FleetSpecError('"children": an opaque gateway aggregates at least one child (§2.2), so children must be 1 or more');
  const behind = behindSeeThru(spec.children, spec.depth);
  if (spec.seeThruGateways > 0 && behind > MAX_BEHIND_GATEWAY) {
    throw new FleetSpecError(
      `"children"/"depth": ${spec.children} children over ${spec.depth} levels puts ${behind} devices behind each see-thru gateway (limit ${MAX_BEHIND_GATEWAY})`,
    );
  }
  if (spec.devices + spec.seeThruGateways + spec.opaqueGateways === 0)
    throw new FleetSpecError('"devices": the fleet is empty; give devices or gateways');
  return spec;
}

/** Devices behind one see-thru gateway: children + children^2 + ... + children^depth. */
export function behindSeeThru(children: number, depth: number): number {
  let total = 0;
  for (let level = 1, width = 1; level <= depth && total <= MAX_BEHIND_GATEWAY; level++) total += width *= children;
  return total;
}

export async function loadFleetFile(path: string): Promise<Partial<FleetSpec>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new FleetSpecError(`--fleet-file ${path}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new FleetSpecError(`${path}: not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new FleetSpecError(`${path}: the fleet file must be a mapping of settings`);
  // A setting's newer name (FILE_KEY_NAMES) is read as its key; its old spelling still works, both at once is refused.
  const settings = { ...(doc as Record<string, unknown>) };
  const written = new Map<string, string>();
  for (const [key, newer] of Object.entries(FILE_KEY_NAMES)) {
    if (settings[newer] === undefined) continue;
    if (settings[key] !== undefined)
      throw new FleetSpecError(`${path}: key "${newer}" and "${key}" (its old spelling) are both given; keep one`);
    settings[key] = settings[newer];
    delete settings[newer];
    written.set(key, newer);
  }
  return parseFleetInput(settings, (key) => `${path}: key "${written.get(key) ?? key}"`);
}

function renamedKeys(): string {
  return Object.entries(FILE_KEY_NAMES)
    .map(([key, newer]) => `${newer} for ${key}`)
    .join('; ');
}

export function formatShard(s: Shard): string {
  return `${s.index + 1}/${s.count}`;
}

function numberOf(v: unknown, key: string): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new FleetSpecError(`${key}: expected a number, got ${JSON.stringify(v)}`);
  return n;
}

function wholeNumber(v: unknown, key: string, min: number): number {
  const n = numberOf(v, key);
  if (!Number.isSafeInteger(n) || n < min) throw new FleetSpecError(`${key}: expected a whole number ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function decimal(v: unknown, key: string, min: number): number {
  const n = numberOf(v, key);
  if (n < min) throw new FleetSpecError(`${key}: expected a number ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function ratio(v: unknown, key: string): number {
  const n = numberOf(v, key);
  if (n < 0 || n > 1) throw new FleetSpecError(`${key}: expected a share between 0 and 1, got ${JSON.stringify(v)}`);
  return n;
}

/** A mapping `{ name: probability }` or the flag form `name=p,name=p`. */
function faultMix(v: unknown, key: string): MisbehaviourMix {
  const mix: MisbehaviourMix = {};
  for (const [name, p] of faultEntries(v, key)) {
    if (!isFaultName(name)) throw new FleetSpecError(`${key}: unknown fault "${name}"`);
    mix[name] = ratio(p, `${key}.${name}`);
  }
  return mix;
}

function faultEntries(v: unknown, key: string): [string, unknown][] {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return Object.entries(v);
  if (typeof v !== 'string') throw new FleetSpecError(`${key}: expected a mapping of fault name to probability, or "name=p,..."`);
  return v
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const [name = '', p, ...rest] = part.split('=');
      if (p === undefined || rest.length) throw new FleetSpecError(`${key}: "${part}" is not name=probability`);
      return [name.trim(), p.trim()];
    });
}

function shard(v: unknown, key: string): Shard {
  const parsed = parseShard(v);
  if (!parsed) throw new FleetSpecError(`${key}: expected i/n with 1 ≤ i ≤ n (as 2/4), got ${JSON.stringify(v)}`);
  return { index: parsed.index - 1, count: parsed.total };
}

function idPrefix(v: unknown, key: string): string {
  if (typeof v !== 'string' || !/^[A-Za-z0-9._~-]*$/.test(v))
    throw new FleetSpecError(`${key}: expected RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~), got ${JSON.stringify(v)}`);
  return v;
}

function quantityFormat(v: unknown, key: string): QuantityFormat {
  if (v !== 'spaced' && v !== 'compact') throw new FleetSpecError(`${key}: expected spaced or compact, got ${JSON.stringify(v)}`);
  return v;
}
