// Faults of §2.5, §2.6, §4.5, §4.6 (discovery document and SPIFFE trust bundle, served by the identity role).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
