// Faults of §4.7's retrieval workflow (the WFM pulls the package it is assigned): assignment decisions of the
// reference WFM (reference/wfm/decisions/assignment.ts).
import type { ServiceFaultTable } from './types.ts';

export const implementations: ServiceFaultTable = {
  // Pulls the manifest of the assigned version by its tag, never listing the versions.
  'REG-WFM-RETRIEVAL': { wfm: () => ({ listsVersionsFirst: false }) },
  'REG-WFM-RETRIEVAL:skip-layer': { wfm: (base) => ({ layersPulled: (layers) => base.layersPulled(layers).slice(0, -1) }) },
  'REG-WFM-OCI-PULL': { wfm: () => ({ sendsManifestAccept: false }) },
  'REG-WFM-OCI-PULL:unverified': { wfm: () => ({ verifiesPulledDigests: false }) },
};
