// Faults of §5 registry authentication: registry decisions (reference/registry/decisions.ts, grantsAccess), and an
// assignment decision of the WFM's pulls (reference/wfm/decisions/assignment.ts).
import type { ServiceFaultTable } from './types.ts';

export const implementations: ServiceFaultTable = {
  'AUTH-REGISTRY-TOKEN': { registry: () => ({ grantsAccess: () => true }) },
  'AUTH-REGISTRY-TOKEN:scope': { registry: () => ({ grantsAccess: (access) => access !== undefined }) },
  // A 401 challenge ends the pull: no token is asked for.
  'AUTH-WFM-REGISTRY-TOKEN': { wfm: () => ({ asksForRegistryToken: false }) },
};
