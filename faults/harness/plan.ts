// What the catch-rate harness runs: which faults, which tests (a --grep over requirement ids), which seed, which folder.
import { FAULT_SERVICES, type FaultEntry } from '../catalog.ts';
import type { Edition } from '../../spec/profile.ts';

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A Playwright --grep selecting the tests of these requirements: titles start with their ids (STYLE habit 2), and
 * the lookahead keeps CAP-PUT-20 from selecting CAP-PUT-201. Playwright matches the joined title path, hence `(^| )`.
 */
export function requirementsGrep(ids: readonly string[]): string {
  if (ids.length === 0) throw new Error('requirementsGrep needs at least one requirement id');
  const alternatives = [...new Set(ids)].map(escapeRegex).join('|');
  return `(^| )(${alternatives})(?![-A-Z0-9])`;
}

/** The fast subset `npm test` runs: the first fault of each service, and the first of edition miaf (deterministic). */
export function quickSubset<F extends FaultEntry>(faults: readonly F[]): F[] {
  const firsts = [
    ...FAULT_SERVICES.map((s) => faults.find((f) => f.service === s && editionOf(f) === 'seed')),
    faults.find((f) => editionOf(f) === 'miaf'),
  ];
  return firsts.filter((f): f is F => f !== undefined);
}

/** The persona a fault's checks run in: a client fault is judged by the device persona. */
export function personaOf(f: Pick<FaultEntry, 'service'>): 'device' | undefined {
  return f.service === 'client' ? 'device' : undefined;
}

/** The edition a fault runs in (P10): seed unless it says otherwise. */
export function editionOf(f: Pick<FaultEntry, 'edition'>): Edition {
  return f.edition ?? 'seed';
}

/** A fault id as a folder name: `<ID>:<variant>` keeps its variant, without the colon. */
export function runDirName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** The seed of the k-th repeat (1-based): distinct per repeat, so a check that catches only some seeds shows as flaky. */
export function repeatSeed(seed: number, k: number): number {
  return (seed + k - 1) | 0;
}

export interface RunSpec {
  /** A fault id, or undefined for the clean services. */
  fault?: string;
  /** Requirement ids whose tests run; undefined = the whole suite. */
  requirements?: readonly string[];
  out: string;
  seed: number;
  /** The edition of the reference services (default seed). */
  edition?: Edition;
  /** `device`: the kit plays the services and judges its own client (client faults). */
  persona?: 'device';
}

/** Arguments of `wfmck run` for one run; a selected run needs one Playwright worker, the whole suite keeps the default. */
export function runArgs(spec: RunSpec): string[] {
  const args = ['run', '--out', spec.out, '--seed', String(spec.seed)];
  if (spec.fault !== undefined) args.push('--fault', spec.fault);
  if (spec.edition !== undefined && spec.edition !== 'seed') args.push('--edition', spec.edition);
  if (spec.persona !== undefined) args.push('--persona', spec.persona);
  if (spec.requirements !== undefined) args.push('--grep', requirementsGrep(spec.requirements), '--workers', '1');
  return args;
}
