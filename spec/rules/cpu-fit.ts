// §2.1.1 CPU: an application fits only if ONE cpus entry has the cores (and a listed architecture); never sum entries.

import type { Cpu } from '../types.ts';

export interface CpuRequirement {
  cores: number;
  /** An empty list means "any architecture", like an absent one (§2.1.1: "when the application lists one or more"). */
  architectures?: readonly string[];
}

/** An entry without `architecture` never matches a listed architecture: it has none "that is one of them". */
export function cpuEntryFits(cpu: Cpu, required: CpuRequirement): boolean {
  if (!(cpu.cores >= required.cores)) return false;
  const architectures = required.architectures ?? [];
  return architectures.length === 0 || (cpu.architecture !== undefined && architectures.includes(cpu.architecture));
}

/** Index of the first entry that fits on its own, or -1. */
export function fittingCpuIndex(cpus: readonly Cpu[], required: CpuRequirement): number {
  return cpus.findIndex((cpu) => cpuEntryFits(cpu, required));
}

export function cpuFits(cpus: readonly Cpu[], required: CpuRequirement): boolean {
  return fittingCpuIndex(cpus, required) !== -1;
}
