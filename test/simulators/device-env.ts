// Shared setup for the device simulator tests: embedded reference services, a device environment per simulated
// client (its own certificate from the embedded device CA), and compose components published into the registry.
import { hostingDocument } from '../../fixtures/documents/capabilities.ts';
import { createPrivateKey } from 'node:crypto';
import { buildTarGz, benignEntries, type ArchiveEntrySpec } from '../../fixtures/archives/build.ts';
import { startEmbedded, type Embedded } from '../../run/processes/embedded.ts';
import { certificateKeyId, issueCertificate } from '../../protocol/pki.ts';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST, mediaTypes } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import { DeviceApiClient } from '../../simulators/device-api.ts';
import type { DeviceEnvironment } from '../../simulators/device/driver.ts';
import type { DeviceDescription, DeviceEvent, DeviceMisbehaviour, DeviceKind } from '../../simulators/device/types.ts';
import { RegistryClient } from '../../simulators/registry-client.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport, type UndiciTransport } from '../../simulators/transport/undici-transport.ts';

export interface Harness {
  embedded: Embedded;
  profile: Profile;
  /** A device environment with its own client certificate; events and exchanges recorded for assertions. */
  newEnv(opts?: { timeScale?: number }): Promise<TestEnv>;
  registry: RegistryClient;
  close(): Promise<void>;
}

export interface TestEnv {
  env: DeviceEnvironment;
  events: DeviceEvent[];
  transcript: Transcript;
}

export async function startHarness(): Promise<Harness> {
  const embedded = await startEmbedded();
  const profile = resolveProfile();
  const transports: UndiciTransport[] = [];
  const open = (baseUrl: string, transcript?: Transcript) => {
    const t = createTransport({ baseUrl, ca: embedded.caPem, ...(transcript ? { transcript } : {}) });
    transports.push(t);
    return t;
  };
  const registry = new RegistryClient({ transport: open(embedded.registry) });
  const registryFor = (repositoryUrl: string) => {
    if (repositoryUrl !== `oci://${new URL(embedded.registry).host}`) throw new Error(`test registry asked for ${repositoryUrl}`);
    return registry;
  };
  return {
    embedded,
    profile,
    registry,
    async newEnv(opts = {}) {
      const issued = await issueCertificate(embedded.deviceCa, { commonName: 'simulated device', usage: ['client'] });
      const der = Buffer.from(issued.cert.rawData);
      const transcript = new Transcript();
      const api = new DeviceApiClient({
        transport: open(embedded.wfm, transcript),
        profile,
        signer: { keyId: certificateKeyId(der), privateKey: createPrivateKey(issued.keyPem), algorithm: profile.signatureAlgorithm },
      });
      const events: DeviceEvent[] = [];
      const env: DeviceEnvironment = {
        api,
        registry: registryFor,
        observer: (e) => events.push(e),
        profile,
        certificate: der.toString('base64'),
        timeScale: opts.timeScale ?? 0.001,
      };
      return { env, events, transcript };
    },
    async close() {
      await Promise.allSettled(transports.map((t) => t.close()));
      await embedded.close();
    },
  };
}

/** A hosting document for `id` (§2.1.1), compose-capable. */
export const hostingCapabilities = (id: string): DeviceCapabilities =>
  hostingDocument(id, {
    vendor: 'Acme',
    modelNumber: 'EDGE-100',
    cpus: [{ cores: 2, architecture: 'arm64' }],
    memory: '4 Gi',
    storage: '32 Gi',
  });

export function describe(
  kind: DeviceKind,
  id: string,
  extra: Partial<DeviceDescription> = {},
  faults: DeviceMisbehaviour = {},
): DeviceDescription {
  return { kind, id, capabilities: hostingCapabilities(id), hostsWorkloads: true, faults, ...extra };
}

let serial = 0;

export function uniqueId(prefix: string): string {
  return `${prefix}-${process.pid}-${++serial}`;
}

export interface Published {
  repository: string;
  revision: string;
  blobDigest: string;
}

/** Pushes a compose component (§2.7: one layer, the archive, with the required annotations) as `name:revision`. */
export async function publishComponent(
  registry: RegistryClient,
  registryUrl: string,
  name: string,
  revision: string,
  opts: { entries?: ArchiveEntrySpec[]; layerDigest?: string; annotations?: Record<string, string>; vendor?: string } = {},
): Promise<Published> {
  const mt = mediaTypes(opts.vendor ?? 'platform');
  const blob = await buildTarGz(opts.entries ?? benignEntries());
  const pushed = await registry.pushBlob(name, blob);
  const config = await registry.pushBlob(name, Buffer.from('{}'));
  if (!pushed.ok || !config.ok) throw new Error(`blob push failed: ${pushed.response.status} ${config.response.status}`);
  const annotations = {
    [mt.annotation.componentType]: 'compose',
    [mt.annotation.componentVersion]: revision,
    'org.opencontainers.image.title': name,
    ...opts.annotations,
  };
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: mt.composeArtifact,
    config: OCI_EMPTY_DESCRIPTOR,
    layers: [{ mediaType: mt.composeLayer, digest: opts.layerDigest ?? pushed.digest, size: blob.length, annotations }],
  };
  const response = await registry.pushManifest(name, revision, Buffer.from(JSON.stringify(manifest)), OCI_MANIFEST);
  if (response.status !== 201) throw new Error(`manifest push failed: ${response.status} ${response.text()}`);
  return { repository: `oci://${new URL(registryUrl).host}/${name}`, revision, blobDigest: digestOf(blob) };
}

/** Runs the embedded assignDeployment hook (P5) for the device's client. */
export async function assign(
  h: Harness,
  clientId: string,
  deviceId: string,
  components: { name: string; repository: string; revision: string }[],
): Promise<string> {
  const out = (await h.embedded.hooks['assignDeployment']!({ clientId, deviceId, applicationId: 'app', components })) as {
    deploymentId: string;
  };
  return out.deploymentId;
}

export function requestLine(x: { method: string; url: string }): string {
  return `${x.method} ${new URL(x.url).pathname}`;
}
