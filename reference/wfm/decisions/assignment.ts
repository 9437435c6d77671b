// What the reference WFM decides when the operator assigns a deployment (P5 assignDeployment): where an application
// fits (§2.1.1 CPU) and how it retrieves the package (§4.7, §5). A faulty variant replaces single decisions
// (reference/faults/placement.ts, retrieval.ts, registry-auth.ts).
import { cpuFits, type CpuRequirement } from '../../../spec/rules/cpu-fit.ts';
import type { Cpu } from '../../../spec/types.ts';

export interface Layer {
  digest: string;
  size: number;
}

export interface AssignmentDecisions {
  /** §2.1.1: an application needing `required` fits a device with these cpus entries (one entry alone must fit). */
  cpuFits(cpus: readonly Cpu[], required: CpuRequirement): boolean;
  /** §4.7: the versions of a package are listed before its manifest is pulled by tag. */
  listsVersionsFirst: boolean;
  /** OCI pulling-manifests: the manifest GET names the OCI image manifest type in Accept. */
  sendsManifestAccept: boolean;
  /** OCI pulling-manifests and pulling-blobs: pulled bytes are checked against the digest asked for. */
  verifiesPulledDigests: boolean;
  /** §4.7: the layer blobs pulled of a package manifest. */
  layersPulled(layers: readonly Layer[]): readonly Layer[];
  /** §5: a registry's 401 challenge is answered with a token from its authentication service. */
  asksForRegistryToken: boolean;
}

export const cleanAssignmentDecisions: AssignmentDecisions = {
  cpuFits,
  listsVersionsFirst: true,
  sendsManifestAccept: true,
  verifiesPulledDigests: true,
  layersPulled: (layers) => layers,
  asksForRegistryToken: true,
};
