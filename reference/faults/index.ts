// Every service fault's implementation, by its id in faults/catalog.yaml, and the variant of one reference service
// with some of them switched on: its decisions (the clean ones, each fault replacing its own) and its rewrites.
import { cleanIdentityDecisions, type IdentityDecisions } from '../identity/decisions.ts';
import { defaultDecisions as cleanRegistryDecisions, type RegistryDecisions } from '../registry/decisions.ts';
import { cleanWfmDecisions, type WfmDecisions } from '../wfm/decisions/index.ts';
import { implementations as capabilities } from './capabilities.ts';
import { implementations as compose } from './compose.ts';
import { implementations as desiredState } from './desired-state.ts';
import { implementations as gateways } from './gateways.ts';
import { implementations as identity } from './identity.ts';
import { implementations as miaf } from './miaf.ts';
import { implementations as onboarding } from './onboarding.ts';
import { implementations as placement } from './placement.ts';
import { implementations as registryAuth } from './registry-auth.ts';
import { implementations as registry } from './registry.ts';
import { implementations as retrieval } from './retrieval.ts';
import { implementations as status } from './status.ts';
import type { Rewrite } from './rewrite.ts';
import type { Overrides, ServiceFaultImplementation, ServiceFaultTable } from './types.ts';

/** One table of every area's; an id implemented in two areas is a bug, named at load. */
function joined(areas: Record<string, ServiceFaultTable>): ServiceFaultTable {
  const all: Record<string, ServiceFaultImplementation> = {};
  const where = new Map<string, string>();
  for (const [area, table] of Object.entries(areas)) {
    for (const [id, implementation] of Object.entries(table)) {
      if (where.has(id)) throw new Error(`fault ${id} is implemented twice: in reference/faults/ ${where.get(id)} and ${area}`);
      where.set(id, area);
      all[id] = implementation;
    }
  }
  return Object.freeze(all);
}

/** The implementation tables of reference/faults/, one per spec area. */
export const SERVICE_FAULT_AREAS: Readonly<Record<string, ServiceFaultTable>> = {
  capabilities,
  gateways,
  onboarding,
  status,
  desiredState,
  identity,
  registry,
  retrieval,
  registryAuth,
  compose,
  placement,
  miaf,
};

export const SERVICE_FAULTS: ServiceFaultTable = joined(SERVICE_FAULT_AREAS);

export type ReferenceService = 'wfm' | 'identity' | 'registry';

export interface ServiceVariant<D> {
  decisions: D;
  /** Rewrites of the service's answers, in the order the faults were given. */
  rewrites: Rewrite[];
}

/**
 * The decisions and rewrites of `service` with faults `ids` on (ids of that service, faults/catalog.yaml): built once
 * per service instance, so each faulty decision keeps its memory in this instance only.
 */
function variant<D>(
  service: ReferenceService,
  clean: D,
  ids: readonly string[],
  overridesOf: (f: ServiceFaultImplementation) => Overrides<D> | undefined,
): ServiceVariant<D> {
  let decisions = clean;
  const rewrites: Rewrite[] = [];
  for (const id of ids) {
    const f = SERVICE_FAULTS[id];
    if (f === undefined) throw new Error(`fault ${id} has no implementation in reference/faults/`);
    const other = (['wfm', 'identity', 'registry'] as const).find((s) => s !== service && f[s] !== undefined);
    if (other !== undefined) throw new Error(`fault ${id} changes the ${other}'s decisions, not the ${service}'s`);
    const overrides = overridesOf(f);
    if (overrides) decisions = { ...decisions, ...overrides(decisions) };
    if (f.rewrite) rewrites.push(f.rewrite());
  }
  return { decisions, rewrites };
}

export const wfmVariant = (ids: readonly string[]): ServiceVariant<WfmDecisions> => variant('wfm', cleanWfmDecisions, ids, (f) => f.wfm);
export const identityVariant = (ids: readonly string[]): ServiceVariant<IdentityDecisions> =>
  variant('identity', cleanIdentityDecisions, ids, (f) => f.identity);
export const registryVariant = (ids: readonly string[]): ServiceVariant<RegistryDecisions> =>
  variant('registry', cleanRegistryDecisions, ids, (f) => f.registry);
