// Deployments in a fleet: the sample compose component published once, then N deployments assigned through the
// P5 assignDeployment hook to every workload-hosting deviceId of a client as soon as it reports.
import { fileURLToPath } from 'node:url';
import type { DeviceDescription, DeviceMisbehaviour } from '../device/types.ts';
import { hierarchy, hostsWorkloads } from '../gateways/see-thru.ts';
import { buildComposeArchive, buildComposeArtifact } from '../publish/compose.ts';
import { pushArtifact } from '../publish/push.ts';
import { RegistryClient } from '../registry-client.ts';
import { createTransport } from '../transport/undici-transport.ts';
import type { DeploymentOutcomes } from './deployment-outcomes.ts';
import { mayContact, refusal } from '../../spec/network-policy.ts';

/** A component as the assignDeployment hook takes it (P5). */
export interface AssignedComponent {
  name: string;
  /** `oci://host[:port]/name`. */
  repository: string;
  revision: string;
}

export interface AssignInput {
  clientId: string;
  deviceId: string;
  applicationId: string;
  components: AssignedComponent[];
}

export type AssignDeployment = (input: AssignInput) => Promise<{ deploymentId: string }>;

/** How a fleet gets deployments onto its devices: what to deploy and the hook that assigns it. */
export interface DeploymentSource {
  components: AssignedComponent[];
  assign: AssignDeployment;
}

export const SAMPLE_FOLDER = fileURLToPath(new URL('../../fixtures/packages/hello-compose', import.meta.url));
export const SAMPLE_REPOSITORY = 'wfmck/hello-compose';
export const SAMPLE_VERSION = '1.0.0';
export const APPLICATION_ID = 'wfmck-fleet-hello';
/** P5: a hook that takes longer fails the check that needed it. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

/**
 * The deviceIds a client's deployments go to: every workload-hosting device the WFM sees (a plain device, an opaque
 * gateway, a hosting see-thru gateway and each hosting device behind it), plus `<gateway>/*` (P4: the gateway
 * chooses) for a see-thru gateway with hosting devices behind it. Each with the faults that may make it fail.
 */
export function deploymentTargets(desc: DeviceDescription): { deviceId: string; faults: DeviceMisbehaviour }[] {
  if (desc.kind !== 'see-thru-gateway') return [{ deviceId: desc.id, faults: desc.faults }];
  const devices = hierarchy(desc);
  // The gateway's unreachableChild explains a 102 or 103 for any deployment behind it; a host's own knobs the rest.
  const behind: DeviceMisbehaviour = desc.faults.unreachableChild ? { unreachableChild: true } : {};
  const targets = devices
    .filter(hostsWorkloads)
    .map((d) => ({ deviceId: d.id, faults: d === desc ? d.faults : { ...d.faults, ...behind } }));
  if (devices.slice(1).some(hostsWorkloads)) targets.push({ deviceId: `${desc.id}/*`, faults: behind });
  return targets;
}

/** Assigns `count` deployments of the source's components to each target of a client that now reports. */
export async function assignDeployments(
  source: DeploymentSource,
  desc: DeviceDescription,
  clientId: string,
  count: number,
  outcomes: DeploymentOutcomes,
  onError: (deviceId: string, err: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  for (const { deviceId, faults } of deploymentTargets(desc)) {
    for (let i = 0; i < count && !signal?.aborted; i++) {
      try {
        const { deploymentId } = await source.assign({ clientId, deviceId, applicationId: APPLICATION_ID, components: source.components });
        outcomes.assigned(deploymentId, faults);
      } catch (err) {
        outcomes.assignErrors++;
        onError(deviceId, err);
      }
    }
  }
}

/** An assignDeployment hook, called in process (the embedded default's) or through the P5 hook runner (a command). */
export function assignerOf(hook: (input: Record<string, unknown>) => Promise<unknown>): AssignDeployment {
  return async (input) => deploymentIdOf(await hook({ ...input }));
}

function deploymentIdOf(answer: unknown): { deploymentId: string } {
  const id = (answer as { deploymentId?: unknown } | null)?.deploymentId;
  if (typeof id !== 'string' || id === '') {
    throw Object.assign(new Error(`hook assignDeployment: answered ${JSON.stringify(answer)?.slice(0, 200)}, not {deploymentId}`), {
      code: 'WFMCK_E_HOOK',
    });
  }
  return { deploymentId: id };
}

/** Publishes fixtures/packages/hello-compose (§2.7) into a loopback registry once; returns it as a component. */
export async function publishSample(registryUrl: string, ca: string | undefined, vendor: string): Promise<AssignedComponent> {
  const archive = await buildComposeArchive(SAMPLE_FOLDER);
  return publishComponent(registryUrl, ca, SAMPLE_REPOSITORY, archive.bytes, { vendor, name: archive.name, version: SAMPLE_VERSION });
}

/** Pushes a compose archive as component `name` at `<repository>:<version>` of a registry the policy allows; returns it as one. */
export async function publishComponent(
  registryUrl: string,
  ca: string | string[] | undefined,
  repository: string,
  archive: Uint8Array,
  o: { vendor: string; name: string; version: string },
): Promise<AssignedComponent> {
  const url = new URL(registryUrl);
  if (!mayContact(url.hostname)) throw new Error(`publish into ${registryUrl}: ${refusal(url.hostname)}`);
  const artifact = buildComposeArtifact(archive, { vendor: o.vendor, version: o.version, title: o.name });
  const transport = createTransport({ baseUrl: url.origin, ...(ca !== undefined ? { ca } : {}) });
  try {
    await pushArtifact(new RegistryClient({ transport }), repository, artifact);
  } finally {
    await transport.close();
  }
  return { name: o.name, repository: `oci://${url.host}/${repository}`, revision: o.version };
}

/** The embedded default's deployments: the sample published into its registry, assigned by its own hook in process. */
export async function sampleDeployments(
  registryUrl: string,
  ca: string | undefined,
  vendor: string,
  hook: (input: Record<string, unknown>) => Promise<unknown>,
): Promise<DeploymentSource> {
  return { components: [await publishSample(registryUrl, ca, vendor)], assign: assignerOf(hook) };
}

/** `oci://host[:port]/name:revision` (the --component flag) as a component; undefined when it is not one. */
export function parseComponentRef(ref: string): AssignedComponent | undefined {
  const m = /^oci:\/\/([^/]+)\/([a-z0-9]+(?:[._/-][a-z0-9]+)*):([A-Za-z0-9_][A-Za-z0-9._-]{0,127})$/.exec(ref);
  if (!m) return undefined;
  const name = m[2]!.split('/').at(-1)!;
  return { name, repository: `oci://${m[1]}/${m[2]}`, revision: m[3]! };
}
