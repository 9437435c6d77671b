// The fault catalog: catalog.yaml is the data (service and client faults alike), this module loads and validates it.
// The implementations live beside their areas (reference/faults/, simulators/faults/), keyed by these ids.
import { readFileSync } from 'node:fs';
import { parseYaml } from '../spec/yaml-memo.ts';
import type { Edition } from '../spec/profile.ts';
import { EDITIONS, appliesTo, loadRequirements, type Requirement } from '../spec/requirements.ts';

/** `client`: a fault of the kit's own device client, judged by persona device; the others break a reference service. */
export type FaultService = 'wfm' | 'identity' | 'registry' | 'client';
/** The client kinds of the device persona's startClient (P5-style `kind`). */
export type ClientKind = 'plain' | 'see-thru-gateway' | 'opaque-gateway';

export interface FaultEntry {
  /** The requirement id it breaks (`CAP-PUT-201`), or `<ID>:<variant>` when several faults break one requirement. */
  readonly id: string;
  readonly service: FaultService;
  /** The edition it runs in (P10); absent = seed. */
  readonly edition?: Edition;
  /** Client faults only: the client kind the fault needs to show; absent = any. */
  readonly kind?: ClientKind;
  /** Requirement ids whose checks must fail against this fault, the one its id names first. */
  readonly breaks: readonly string[];
  /** One line: what the faulty variant does, in the spec's words. */
  readonly description: string;
}

export const FAULT_SERVICES: readonly FaultService[] = ['wfm', 'identity', 'registry', 'client'];
export const CLIENT_KINDS: readonly ClientKind[] = ['plain', 'see-thru-gateway', 'opaque-gateway'];
/** A requirement id, then an optional lower-case variant: `CAP-DELETE-204:404`, `AMV-PRESENT:miaf`. */
export const FAULT_ID_PATTERN = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+(:[a-z0-9]+(-[a-z0-9]+)*)?$/;

const KEYS = new Set(['id', 'service', 'edition', 'kind', 'breaks', 'description']);

export class UnknownFaultError extends Error {
  readonly code = 'WFMCK_E_USAGE_FAULT';
}

/** The requirement a fault id names: the id without its variant. */
export function requirementOf(faultId: string): string {
  return faultId.split(':')[0]!;
}

/**
 * Parses catalog text against the requirement catalog; throws one Error listing every problem. `memo`: the shipped
 * catalog's parse is kept on disk (spec/yaml-memo.ts), as every fault's run reads it.
 */
export function parseFaultCatalog(
  yamlText: string,
  requirements: readonly Requirement[],
  origin = 'faults/catalog.yaml',
  memo = false,
): FaultEntry[] {
  let doc: unknown;
  try {
    doc = parseYaml(yamlText, memo);
  } catch (err) {
    throw new Error(`${origin}: not valid YAML: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc)) throw new Error(`${origin}: the top level must be a list of faults`);
  const byId = new Map(requirements.map((r) => [r.id, r]));
  const problems: string[] = [];
  const seen = new Set<string>();
  const out: FaultEntry[] = [];
  doc.forEach((raw: unknown, index) => {
    const where = `entry ${index + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return void problems.push(`${where}: not a mapping`);
    const e = raw as Record<string, unknown>;
    const label = typeof e.id === 'string' ? `${where} (${e.id})` : where;
    const before = problems.length;
    for (const key of Object.keys(e)) if (!KEYS.has(key)) problems.push(`${label}: unknown key ${key}`);
    const id = oneLine(e, 'id', label, problems);
    const description = oneLine(e, 'description', label, problems);
    const service = oneOf(e.service, FAULT_SERVICES, `${label}: service`, problems);
    const edition = e.edition === undefined ? 'seed' : oneOf(e.edition, EDITIONS, `${label}: edition`, problems);
    const kind = e.kind === undefined ? undefined : oneOf(e.kind, CLIENT_KINDS, `${label}: kind`, problems);
    if (kind !== undefined && service !== 'client') problems.push(`${label}: kind is only for client faults`);
    if (id !== undefined) {
      if (!FAULT_ID_PATTERN.test(id))
        problems.push(`${label}: id must be a requirement id with an optional :variant (${FAULT_ID_PATTERN})`);
      if (seen.has(id)) problems.push(`${label}: duplicate id`);
      seen.add(id);
    }
    const breaks =
      Array.isArray(e.breaks) && e.breaks.length > 0 && e.breaks.every((b) => typeof b === 'string') ? (e.breaks as string[]) : undefined;
    if (!breaks) problems.push(`${label}: breaks must be a non-empty list of requirement ids`);
    else {
      if (new Set(breaks).size !== breaks.length) problems.push(`${label}: breaks names a requirement twice`);
      if (id !== undefined && breaks[0] !== requirementOf(id))
        problems.push(`${label}: breaks must name ${requirementOf(id)}, the requirement of its id, first`);
      for (const b of breaks) {
        const r = byId.get(b);
        // A fault proves the checks of its own service's rules, in the edition it runs in; anything else is never caught.
        if (r === undefined) problems.push(`${label}: breaks ${b}, which spec/requirements.yaml does not have`);
        else if (service !== undefined && r.observer !== service)
          problems.push(`${label}: breaks ${b}, observed by ${r.observer}, not by ${service}`);
        else if (edition !== undefined && !appliesTo(r, edition))
          problems.push(`${label}: breaks ${b}, which does not bind edition ${edition}`);
      }
    }
    if (problems.length > before) return;
    out.push(
      Object.freeze({
        id: id!,
        service: service!,
        ...(edition !== 'seed' && { edition: edition! }),
        ...(kind !== undefined && { kind }),
        breaks: Object.freeze([...breaks!]),
        description: description!,
      }),
    );
  });
  if (problems.length > 0) throw new Error(`${origin}: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  return out;
}

function oneLine(e: Record<string, unknown>, key: string, label: string, problems: string[]): string | undefined {
  const v = e[key];
  if (typeof v !== 'string' || v.trim() === '' || /[\r\n]/.test(v)) {
    problems.push(`${label}: ${key} must be a non-empty string on one line`);
    return undefined;
  }
  return v;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string, problems: string[]): T | undefined {
  if ((allowed as readonly unknown[]).includes(v)) return v as T;
  problems.push(`${what} must be one of ${allowed.join(', ')}`);
  return undefined;
}

let cache: { list: readonly FaultEntry[]; byId: Map<string, FaultEntry> } | undefined;

function catalog(): { list: readonly FaultEntry[]; byId: Map<string, FaultEntry> } {
  if (cache === undefined) {
    const url = new URL('./catalog.yaml', import.meta.url);
    const list = Object.freeze(parseFaultCatalog(readFileSync(url, 'utf8'), loadRequirements(), url.pathname, true));
    cache = { list, byId: new Map(list.map((f) => [f.id, f])) };
  }
  return cache;
}

/** Every fault, in catalog order (entries are frozen and shared). */
export function faultCatalog(): readonly FaultEntry[] {
  return catalog().list;
}

/** A fault of the kit's own device client (persona device), not of a reference service. */
export function isClientFault(id: string): boolean {
  return catalog().byId.get(id)?.service === 'client';
}

/** The entries of the given ids, in order; an unknown id is a usage error that says where they are all listed. */
export function resolveFaultIds(ids: readonly string[]): FaultEntry[] {
  return ids.map((id) => {
    const fault = catalog().byId.get(id);
    if (!fault) throw new UnknownFaultError(`unknown fault "${id}"; \`wfmck faults --list\` names them all (${catalog().list.length})`);
    return fault;
  });
}

/** The ids among `ids` whose fault breaks `service`. */
export function faultIdsOf(service: FaultService, ids: readonly string[]): string[] {
  return resolveFaultIds(ids)
    .filter((f) => f.service === service)
    .map((f) => f.id);
}
