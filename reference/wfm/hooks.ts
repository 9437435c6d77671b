// P5 hooks of the reference WFM: the operator actions no device-facing API offers.
import { randomUUID } from 'node:crypto';
import { certificateKeyId, parseCertificate } from '../../protocol/pki.ts';
import { parseDeviceId } from '../../spec/rules/device-id.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import { applicationDeploymentYaml, buildApplicationDeployment, type AssignedComponent } from './application-deployment.ts';
import { buildManifest } from './manifest.ts';
import { AssignmentRefused, checkPlacement, checkRequiredResources, type RequiredResources } from './placement.ts';
import { cleanWfmDecisions, type WfmDecisions } from './decisions/index.ts';
import { retrievePackage, type PackageRef } from './package-retrieval.ts';
import { DEPLOYMENT_DEFECTS, type Client, type Deployment, type DeploymentDefect, type WfmStore } from './store.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import type { Profile } from '../../spec/profile.ts';
import { admitSpiffeId } from './admission.ts';

export interface WfmHooks {
  /** `requiredResources` is the kit's optional extension (errata of CPU-FIT-ONE-ENTRY): a misfit is refused (throws). */
  /**
   * `deploymentId` (the kit's extension, errata of AMV-EQUALS-HELD) names a deployment of the client to update: the
   * same id gets the new specification as its next revision.
   */
  /**
   * `defect` (judging mode, persona device) serves it as a negative fixture (DEPLOYMENT_DEFECTS); for yaml-digest,
   * `substitute` are the components of the other bytes its URL serves.
   */
  assignDeployment(input: {
    clientId: string;
    deviceId: string;
    applicationId: string;
    components: AssignedComponent[];
    requiredResources?: RequiredResources;
    package?: PackageRef;
    unregistered?: boolean;
    deploymentId?: string;
    defect?: DeploymentDefect;
    substitute?: AssignedComponent[];
  }): Promise<{ deploymentId: string }>;
  removeDeployment(input: { clientId: string; deviceId: string; deploymentId: string }): Promise<Record<string, never>>;
  retireClient(input: { clientId: string }): Promise<Record<string, never>>;
  trustClientCertificate(input: { certificatePem: string }): Promise<Record<string, never>>;
  /** P10 (miaf): the local policy admits this client SPIFFE ID; answers its clientId (the ID's last segment). */
  admitClient(input: { spiffeId: string }): Promise<{ clientId: string }>;
}

export function createHooks(store: WfmStore, profile: Profile, decisions: WfmDecisions = cleanWfmDecisions): WfmHooks {
  const vendor = profile.vendor;
  // One change at a time per client, so two concurrent changes never share a manifestVersion.
  const queues = new WeakMap<Client, Promise<unknown>>();
  const serial = <T>(client: Client, fn: () => Promise<T>): Promise<T> => {
    const next = (queues.get(client) ?? Promise.resolve()).then(fn, fn);
    queues.set(
      client,
      next.catch(() => undefined),
    );
    return next;
  };
  /** The next manifest; `step` 0 or -1 only for the judging defects that repeat or lower its version (never below 1). */
  const republish = async (client: Client, step = 1) => {
    client.manifest = await buildManifest(client, Math.max(1, client.manifest.version + step), vendor, decisions);
  };

  return {
    async assignDeployment(input) {
      const client = activeClient(store, input?.clientId);
      checkTarget(client, input.deviceId, input.unregistered === true);
      if (input.defect !== undefined && !(DEPLOYMENT_DEFECTS as readonly string[]).includes(input.defect))
        throw new Error(`assignDeployment: defect is one of ${DEPLOYMENT_DEFECTS.join(', ')}`);
      const components = checkComponents(input.components);
      if (typeof input.applicationId !== 'string' || input.applicationId === '')
        throw new Error('assignDeployment: applicationId is required');
      checkPlacement(
        input.deviceId,
        candidates(client, input.deviceId),
        checkRequiredResources(input.requiredResources),
        decisions.cpuFits,
      );
      // `package` is the kit's optional extension (errata of REG-WFM-RETRIEVAL): a package it cannot retrieve is refused.
      if (input.package !== undefined)
        await retrievePackage(input.package, decisions).catch((e: Error) => {
          throw new AssignmentRefused(`assignDeployment: refused: ${e.message}`);
        });
      return serial(client, async () => {
        const deploymentId = writeDeployment(client, input, components, vendor);
        // Defects version-repeats and version-goes-down: the manifest carrying it reuses or lowers the version.
        await republish(client, input.defect === 'version-repeats' ? 0 : input.defect === 'version-goes-down' ? -1 : 1);
        return { deploymentId };
      });
    },

    async removeDeployment(input) {
      const client = activeClient(store, input?.clientId);
      return serial(client, async () => {
        const deployment = client.deployments.get(input.deploymentId);
        if (!deployment || deployment.removed)
          throw new Error(`removeDeployment: no deployment ${input.deploymentId} for client ${client.clientId}`);
        if (input.deviceId !== undefined && input.deviceId !== deployment.deviceId) {
          throw new Error(`removeDeployment: deployment ${input.deploymentId} targets ${deployment.deviceId}, not ${input.deviceId}`);
        }
        // Kept (marked removed) so the client can still report removing/removed; see status.ts.
        deployment.removed = true;
        client.active = client.active.filter((id) => id !== input.deploymentId);
        await republish(client);
        return {};
      });
    },

    async retireClient(input) {
      const client = store.client(input?.clientId);
      if (!client) throw new Error(`retireClient: unknown client ${input?.clientId}`);
      client.retired = true;
      return {};
    },

    async trustClientCertificate(input) {
      let der: ArrayBuffer;
      try {
        der = parseCertificate(input?.certificatePem ?? '').rawData;
      } catch (e) {
        throw new Error(`trustClientCertificate: not a certificate: ${(e as Error).message}`);
      }
      store.trustedKeyIds.add(certificateKeyId(der));
      return {};
    },

    async admitClient(input) {
      if (profile.deviceAuth !== 'mtls')
        throw new Error('admitClient: this WFM serves edition seed (clients onboard; profile deviceAuth is not mtls)');
      if (typeof input?.spiffeId !== 'string') throw new Error('admitClient: spiffeId is required');
      return { clientId: (await admitSpiffeId({ store, profile, decisions }, input.spiffeId)).clientId };
    },
  };
}

type AssignInput = Parameters<WfmHooks['assignDeployment']>[0];

/**
 * Writes an assigned deployment into the client's record: a new one, or (with `deploymentId`) the next revision of one
 * it holds; a judging defect rides along. Answers its deploymentId; the manifest is republished by the caller.
 */
function writeDeployment(client: Client, input: AssignInput, components: AssignedComponent[], vendor: string): string {
  const updated = input.deploymentId === undefined ? undefined : updatable(client, input.deploymentId, input.deviceId);
  const deploymentId = updated?.deploymentId ?? randomUUID();
  const doc = buildApplicationDeployment(
    { deploymentId, clientId: client.clientId, deviceId: input.deviceId, applicationId: input.applicationId, components },
    vendor,
  );
  // Never serve a document the kit's own schema refuses (e.g. a repository without oci://, a revision with v).
  const checked = validate('ApplicationDeployment', doc, { vendor });
  if (!checked.ok) throw new Error(`assignDeployment: ${formatSchemaErrors(checked.errors)}`);
  const yaml = applicationDeploymentYaml(doc);
  const since = client.manifest.version + 1;
  const componentNames = components.map((c) => c.name);
  const defect = {
    defect: input.defect,
    servedYaml: input.defect === 'yaml-digest' ? substituteYaml(input, deploymentId, client.clientId, vendor) : undefined,
  };
  if (updated) {
    Object.assign(
      updated,
      { componentNames, yaml, digest: digestOf(yaml), revisions: [...updated.revisions, { since, componentNames }] },
      defect,
    );
  } else {
    client.deployments.set(deploymentId, {
      deploymentId,
      deviceId: input.deviceId,
      componentNames,
      yaml,
      digest: digestOf(yaml),
      addedInVersion: since,
      revisions: [{ since, componentNames }],
      removed: false,
      ...defect,
    });
    client.active.push(deploymentId);
  }
  return deploymentId;
}

/** Defect yaml-digest: a valid YAML of the same deployment naming the substitute components, served under the real one's digest. */
function substituteYaml(
  input: { deviceId: string; applicationId: string; substitute?: AssignedComponent[] },
  deploymentId: string,
  clientId: string,
  vendor: string,
): Buffer {
  const components = checkComponents(input.substitute);
  return applicationDeploymentYaml(
    buildApplicationDeployment(
      { deploymentId, clientId, deviceId: input.deviceId, applicationId: input.applicationId, components },
      vendor,
    ),
  );
}

/** An update names a deployment of this client that is still assigned, to the same device. */
function updatable(client: Client, deploymentId: string, deviceId: string): Deployment {
  const deployment = client.deployments.get(deploymentId);
  if (!deployment || deployment.removed)
    throw new Error(`assignDeployment: no deployment ${deploymentId} of client ${client.clientId} to update`);
  if (deployment.deviceId !== deviceId)
    throw new Error(`assignDeployment: deployment ${deploymentId} targets ${deployment.deviceId}, not ${deviceId}`);
  return deployment;
}

function activeClient(store: WfmStore, clientId: string | undefined): Client {
  const client = clientId === undefined ? undefined : store.client(clientId);
  if (!client) throw new Error(`unknown client ${clientId}`);
  if (client.retired) throw new Error(`client ${clientId} is retired`);
  return client;
}

/**
 * The target is a device the client registered, or `<gateway>/*` for a registered see-thru gateway (P4). With
 * `unregistered` (the device persona's code 101 scenario) it is a device the client never registered, directly under
 * one it did.
 */
function checkTarget(client: Client, deviceId: unknown, unregistered: boolean): void {
  if (typeof deviceId !== 'string') throw new Error('assignDeployment: deviceId is required');
  const device = deviceId.endsWith('/*') ? deviceId.slice(0, -2) : deviceId;
  if (!parseDeviceId(device).ok) throw new Error(`assignDeployment: invalid deviceId ${deviceId}`);
  if (unregistered) {
    const parent = device.split('/').slice(0, -1).join('/');
    if (client.devices.has(device) || !client.devices.has(parent))
      throw new Error(
        `assignDeployment: unregistered: ${device} must be unknown and ${parent || 'its parent'} registered by client ${client.clientId}`,
      );
    return;
  }
  if (!client.devices.has(device)) throw new Error(`assignDeployment: client ${client.clientId} has no device ${device}`);
}

/** The device a deployment lands on, or for `<gateway>/*` every device below the gateway (it picks one). */
function candidates(client: Client, deviceId: string): DeviceCapabilities[] {
  if (!deviceId.endsWith('/*')) return client.devices.has(deviceId) ? [client.devices.get(deviceId)!] : [];
  const prefix = deviceId.slice(0, -1);
  return [...client.devices].filter(([id]) => id.startsWith(prefix)).map(([, doc]) => doc);
}

function checkComponents(components: unknown): AssignedComponent[] {
  if (!Array.isArray(components) || components.length === 0) throw new Error('assignDeployment: at least one component is required');
  const names = new Set<string>();
  for (const c of components as Partial<AssignedComponent>[]) {
    if (typeof c?.name !== 'string' || typeof c.repository !== 'string' || typeof c.revision !== 'string') {
      throw new Error('assignDeployment: each component needs string name, repository and revision');
    }
    if (names.has(c.name)) throw new Error(`assignDeployment: component ${c.name} appears twice`);
    names.add(c.name);
  }
  return (components as AssignedComponent[]).map(({ name, repository, revision }) => ({ name, repository, revision }));
}
