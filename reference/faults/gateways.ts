// Faults of §2.2 gateways and the see-thru hierarchy (PUT/DELETE ordering, 404).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
