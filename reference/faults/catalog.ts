// Every fault the kit ships, one file per spec area. A fault's id names the requirement it breaks.
import { faults as capabilities } from './capabilities.ts';
import { faults as gateways } from './gateways.ts';
import { faults as onboarding } from './onboarding.ts';
import { faults as status } from './status.ts';
import { faults as desiredState } from './desired-state.ts';
import { faults as identity } from './identity.ts';
import { faults as registry } from './registry.ts';
import { faults as compose } from './compose.ts';
import { faults as placement } from './placement.ts';
import { faults as retrieval } from './retrieval.ts';
import { faults as registryAuth } from './registry-auth.ts';
import { faults as miaf } from './miaf.ts';
import type { FaultDefinition, ServiceName } from './types.ts';

export const FAULTS: readonly FaultDefinition[] = Object.freeze([
  ...capabilities, ...gateways, ...onboarding, ...status, ...desiredState, ...identity, ...registry, ...retrieval, ...registryAuth, ...compose, ...placement, ...miaf,
]);

export class UnknownFaultError extends Error {
  readonly code = 'WFMCK_E_USAGE_FAULT';
}

/** The definitions of the given ids, in order; an unknown id is a usage error that lists the known ones. */
export function resolveFaults(ids: readonly string[]): FaultDefinition[] {
  return ids.map((id) => {
    const fault = FAULTS.find((f) => f.id === id);
    if (!fault) throw new UnknownFaultError(`unknown fault "${id}"; \`wfmck faults --list\` names them all (${FAULTS.length})`);
    return fault;
  });
}

export function faultsOf(service: ServiceName, faults: readonly FaultDefinition[]): FaultDefinition[] {
  return faults.filter((f) => f.service === service);
}
