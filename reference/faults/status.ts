// Faults of §2.4, §4.4, P7 (deployment status reports).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
