// Seams of the faults in reference/faults/desired-state.ts that change what a state manifest says (P4): each is one
// wrong decision, taken only when its fault id is switched on for the client's WFM.
import { parse, stringify } from 'yaml';
import { digestOf } from '../../spec/rules/desired-state.ts';
import type { ApplicationDeployment } from '../../spec/types.ts';
import type { ActiveFaults } from '../faults/types.ts';
import type { Deployment } from './store.ts';

/** The manifestVersion served for the version the WFM counts. */
export function servedVersion(faults: ActiveFaults, version: number): number {
  // DS-MANIFESTVERSION-RANGE: counts from 0.
  // MIAF-DS-FIRST-VERSION-1: the same, judged by the miaf rule (the first manifest is 1).
  if (faults.has('DS-MANIFESTVERSION-RANGE') || faults.has('MIAF-DS-FIRST-VERSION-1')) return version - 1;
  // DS-VERSION-STRICTLY-INCREASING: every manifest is version 1, changed or not.
  if (faults.has('DS-VERSION-STRICTLY-INCREASING')) return 1;
  // AMV-MONOTONIC: counts down.
  if (faults.has('AMV-MONOTONIC')) return 1000 - version;
  return version;
}

/** DS-DIGEST-FORMAT: digests written with uppercase hex (the URLs keep the real one). */
export function servedDigest(faults: ActiveFaults, digest: string): string {
  if (!faults.has('DS-DIGEST-FORMAT')) return digest;
  const [alg, hex] = digest.split(':');
  return `${alg}:${hex!.toUpperCase()}`;
}

/** VER-PATH-V1: the URLs handed out lose their version segment. */
export function servedPath(faults: ActiveFaults, path: string): string {
  return faults.has('VER-PATH-V1') ? path.replace('/api/v1/', '/api/') : path;
}

const YAML_FAULTS: [string, (doc: ApplicationDeployment) => void][] = [
  ['DS-YAML-KIND', (d) => void ((d as { kind: string }).kind = 'Deployment')],
  ['DS-YAML-ID-MATCHES', (d) => void (d.metadata.annotations.id = '00000000-0000-4000-8000-000000000000')],
  // Only the last segment of a hierarchy is written.
  ['DS-YAML-DEVICEID', (d) => void (d.metadata.deviceId?.endsWith('/*') || (d.metadata.deviceId = d.metadata.deviceId?.split('/').at(-1)))],
  ['DS-YAML-WILDCARD-CHILD', (d) => void (d.metadata.deviceId = d.metadata.deviceId?.replace(/\/\*$/, ''))],
  ['DS-YAML-PROFILE-TYPE', (d) => void (d.spec.deploymentProfile.type = 'docker-compose')],
  // The miaf rules of P10 for the same document.
  ['MIAF-PROFILE-TYPE', (d) => void (d.spec.deploymentProfile.type = 'kustomize' as never)],
  ['MIAF-REVISION-SEMVER', (d) => d.spec.deploymentProfile.components.forEach((c) => (c.properties.revision = `v${c.properties.revision}`))],
  ['MIAF-TIMEOUT-FORMAT', (d) => d.spec.deploymentProfile.components.forEach((c) => (c.properties.timeout = '330s'))],
  ['DS-YAML-COMPONENTS', (d) => d.spec.deploymentProfile.components.forEach((c) => (c.properties.repository = c.properties.repository.replace(/^oci:\/\//, '')))],
];

/** Rewrites a deployment's YAML (and so its digest) before it is published, for the DS-YAML-* faults. */
export function faultyDeployment(faults: ActiveFaults, deployment: Deployment): void {
  const hits = YAML_FAULTS.filter(([id]) => faults.has(id));
  if (hits.length === 0) return;
  const doc = parse(deployment.yaml.toString('utf8')) as ApplicationDeployment;
  for (const [, change] of hits) change(doc);
  deployment.yaml = Buffer.from(stringify(doc), 'utf8');
  deployment.digest = digestOf(deployment.yaml);
}
