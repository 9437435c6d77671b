// Faults of §5 registry authentication: registry decisions of reference/registry/decisions.ts (grantsAccess), and a
// seam in the WFM's pulls (reference/wfm/package-retrieval.ts).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [
  {
    id: 'AUTH-REGISTRY-TOKEN', service: 'registry', breaks: ['AUTH-REGISTRY-TOKEN'],
    description: 'serves a protected repository to calls that carry no token',
    registry: { grantsAccess: () => true },
  },
  {
    id: 'AUTH-REGISTRY-TOKEN:scope', service: 'registry', breaks: ['AUTH-REGISTRY-TOKEN'],
    description: 'takes any valid token, whatever repository its scope names',
    registry: { grantsAccess: (access) => access !== undefined },
  },
  {
    id: 'AUTH-WFM-REGISTRY-TOKEN', service: 'wfm', breaks: ['AUTH-WFM-REGISTRY-TOKEN'],
    description: 'pulls packages without asking the authentication service for a token (a 401 challenge ends the pull)',
  },
];
