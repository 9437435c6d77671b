// Faults of §2.1.1 CPU fit: where the reference WFM places an assigned application (assignDeployment with the kit's
// requiredResources): the assignment decision cpuFits (reference/wfm/decisions/assignment.ts).
import { cpuFits } from '../../spec/rules/cpu-fit.ts';
import type { ServiceFaultTable } from './types.ts';

export const implementations: ServiceFaultTable = {
  // An entry's fractional cores are rounded up, so 1.5 cores pass for 2.
  'CPU-FIT-ONE-ENTRY': {
    wfm: (base) => ({
      cpuFits: (cpus, cpu) =>
        base.cpuFits(
          cpus.map((c) => ({ ...c, cores: Math.ceil(c.cores) })),
          cpu,
        ),
    }),
  },
  // The listed architectures are ignored.
  'CPU-FIT-ARCH': { wfm: (base) => ({ cpuFits: (cpus, cpu) => base.cpuFits(cpus, { cores: cpu.cores }) }) },
  // The cores of every entry of a listed architecture are summed into one.
  'CPU-NO-SUM': {
    wfm: (base) => ({
      cpuFits: (cpus, cpu) =>
        base.cpuFits(cpus, cpu) || cpus.filter((c) => cpuFits([c], { ...cpu, cores: 0 })).reduce((sum, c) => sum + c.cores, 0) >= cpu.cores,
    }),
  },
};
