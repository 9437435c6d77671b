// Faults of §2.7 compose components and archives as published in the registry.
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
