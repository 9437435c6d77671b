// Faults of §2.2 gateways and the see-thru hierarchy (PUT/DELETE ordering, 404). Behaviour-level faults name their
// seam in reference/wfm/capabilities.ts or capabilities-faults.ts (search for the id).
import { CAPABILITIES, seam } from './capabilities.ts';
import { on } from './rewrite.ts';
import type { FaultDefinition } from './types.ts';

/** A child deviceId: at least one `/` after the first segment. */
const CHILD = /^\/api\/v1\/(clients\/[^/]+\/)?capabilities\/[^/]+\/.+/;

export const faults: FaultDefinition[] = [
  {
    id: 'CAP-PUT-404',
    service: 'wfm',
    breaks: ['CAP-PUT-404', 'ERR-CAP-PUT-404', 'GW-ORDER-CHILD-FIRST-404', 'GW-ORDER-DELETED-GATEWAY-404', 'GW-SEETHRU-INFER-HIERARCHY'],
    description: 'answers 422 instead of 404 when no gateway is found for a child deviceId',
    rewrite: on('PUT', CAPABILITIES, (a) => (a.status === 404 ? { ...a, status: 422 } : undefined)),
  },
  {
    id: 'CAP-DELETE-204:child',
    service: 'wfm',
    breaks: ['CAP-DELETE-204'],
    description: 'deletes a child of a see-thru gateway but answers 404',
    rewrite: on('DELETE', CHILD, (a) => (a.status === 204 ? { ...a, status: 404 } : undefined)),
  },
  seam('GW-ORDER-CHILD-FIRST-404', ['GW-ORDER-CHILD-FIRST-404', 'CAP-PUT-404', 'ERR-CAP-PUT-404'], 'accepts a child manifest received before any of its gateways reported'),
  seam('CAP-ONE-DEVICE-PER-REQUEST', ['CAP-ONE-DEVICE-PER-REQUEST'], 'registers missing intermediate gateways implicitly with the device below them'),
  seam('GW-ORDER-DELETED-GATEWAY-404', ['GW-ORDER-DELETED-GATEWAY-404'], 'still takes a deleted gateway for the gateway of new children'),
  seam('GW-NONHOSTING-ACCEPTED', ['GW-NONHOSTING-ACCEPTED'], 'refuses (422) the identity-only document of a non-hosting see-thru gateway'),
  seam('GW-SEETHRU-HOSTING-OPTIONAL', ['GW-SEETHRU-HOSTING-OPTIONAL'], 'takes no identity-only device for a gateway: the children of a non-hosting gateway get 404'),
  seam('GW-SEETHRU-CHILD-INDIVIDUAL', ['GW-SEETHRU-CHILD-INDIVIDUAL'], 'answers a new child as an update (200) when a sibling already reported'),
  seam('GW-SEETHRU-INFER-HIERARCHY', ['GW-SEETHRU-INFER-HIERARCHY'], 'finds a gateway by character prefix of the parent id (gw-1 for gw-1x/c), not by whole segments'),
];
