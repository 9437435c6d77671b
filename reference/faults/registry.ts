// Faults of §2.7, §4.7 (the OCI application registry: package manifests, tags, blobs).
import type { FaultDefinition } from './types.ts';

export const faults: FaultDefinition[] = [];
