// Faults of §2.1.1 CPU fit: where the reference WFM places an assigned application (assignDeployment with the kit's
// requiredResources). All are seams in reference/wfm/placement.ts (search the id).
import type { FaultDefinition } from './types.ts';

const seam = (id: string, description: string): FaultDefinition => ({ id, service: 'wfm', breaks: [id], description });

export const faults: FaultDefinition[] = [
  seam('CPU-FIT-ONE-ENTRY', 'rounds each cpus entry up to whole cores, so a device whose best entry has 1.5 cores takes an application needing 2'),
  seam('CPU-FIT-ARCH', "ignores the application's architectures: any entry with enough cores fits"),
  seam('CPU-NO-SUM', 'sums the cores of separate cpus entries to satisfy requiredResources.cpu'),
];
