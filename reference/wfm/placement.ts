// §2.1.1 CPU: the reference WFM places an assigned application only on a device one of whose cpus entries fits the
// application's requiredResources.cpu (the pure rule is spec/rules/cpu-fit.ts; decision cpuFits).
import { cpuFits, type CpuRequirement } from '../../spec/rules/cpu-fit.ts';
import { CPU_ARCHITECTURES, type Cpu, type DeviceCapabilities } from '../../spec/types.ts';

/** The kit's extension of the assignDeployment hook input (requirements.yaml errata of CPU-FIT-ONE-ENTRY). */
export interface RequiredResources {
  cpu?: CpuRequirement;
}

/** Checks the shape of an optional `requiredResources`; absent means no placement constraint. */
export function checkRequiredResources(raw: unknown): RequiredResources | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error('assignDeployment: requiredResources must be an object');
  const cpu = (raw as { cpu?: unknown }).cpu;
  if (cpu === undefined) return {};
  const { cores, architectures } = (cpu ?? {}) as { cores?: unknown; architectures?: unknown };
  if (typeof cores !== 'number' || !(cores > 0)) throw new Error('assignDeployment: requiredResources.cpu.cores must be a positive number');
  if (
    architectures !== undefined &&
    (!Array.isArray(architectures) || !architectures.every((a) => (CPU_ARCHITECTURES as readonly unknown[]).includes(a)))
  ) {
    throw new Error(`assignDeployment: requiredResources.cpu.architectures must list values of ${CPU_ARCHITECTURES.join(', ')}`);
  }
  return { cpu: { cores, ...(architectures !== undefined && { architectures: architectures as string[] }) } };
}

/**
 * The WFM declined an assignment (a misfit, a package it cannot retrieve): a decision of the target, which the admin
 * API answers as the hook contract's `{refused}` (never as a failed hook, which the kit reads as its own breakage).
 */
export class AssignmentRefused extends Error {}

/**
 * Throws AssignmentRefused (the placement is refused) unless one of `devices` fits; `devices` are the target device,
 * or every child of a see-thru gateway addressed as `<gateway>/*` (the gateway then picks one that fits).
 */
export function checkPlacement(
  deviceId: string,
  devices: readonly DeviceCapabilities[],
  required: RequiredResources | undefined,
  fits: (cpus: readonly Cpu[], cpu: CpuRequirement) => boolean = cpuFits,
): void {
  const cpu = required?.cpu;
  if (!cpu) return;
  if (devices.some((d) => fits(d.properties.cpus ?? [], cpu))) return;
  const wanted = cpu.architectures?.length ? ` on ${cpu.architectures.join(' or ')}` : '';
  throw new AssignmentRefused(`assignDeployment: refused: no cpus entry of ${deviceId} alone has ${cpu.cores} cores${wanted} (§2.1.1)`);
}
