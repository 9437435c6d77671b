// Faults of §2.3, §4.3, §5, P2, P3 (onboarding, Certificate API, request signatures).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
