// Faults of profiles.md P4 (desired state: state manifests, deployment YAMLs, bundles).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
