// Faults of §4.7's retrieval workflow (the WFM pulls the package it is assigned): seams in reference/wfm/package-retrieval.ts.
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [
  {
    id: 'REG-WFM-RETRIEVAL', service: 'wfm', breaks: ['REG-WFM-RETRIEVAL'],
    description: 'pulls the manifest of the assigned version by its tag without listing the versions first',
  },
  {
    id: 'REG-WFM-RETRIEVAL:skip-layer', service: 'wfm', breaks: ['REG-WFM-RETRIEVAL'],
    description: 'pulls every layer blob of the package but the last',
  },
  {
    id: 'REG-WFM-OCI-PULL', service: 'wfm', breaks: ['REG-WFM-OCI-PULL'],
    description: 'pulls the package manifest without an Accept header naming the OCI image manifest type',
  },
  {
    id: 'REG-WFM-OCI-PULL:unverified', service: 'wfm', breaks: ['REG-WFM-OCI-PULL'],
    description: 'takes layer blobs without checking their bytes against the digest asked for',
  },
];
