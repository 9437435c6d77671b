// Every example shape of interfaces.md validates; every required field removed and every type broken is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSchemaErrors, schemaOf, validate, type SchemaName } from '../../spec/schemas/index.ts';
import { schemaMutations } from '../../spec/schemas/mutations.ts';

const UUID = 'a3e2f5dc-912e-494f-8395-52cf3769bc06';
const SHA = (c: string) => `sha256:${c.repeat(64)}`;
const EMPTY_CONFIG = {
  mediaType: 'application/vnd.oci.empty.v1+json',
  digest: 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
  size: 2,
};
const CA_DER =
  'MIIBdjCCARygAwIBAgIQbTKzyV0mduc/JedLqmY/eDAKBggqhkjOPQQDAjAbMRkwFwYDVQQDExBleGFtcGxlLm9yZyByb290MB4XDTI2MTEyMjA4NDA1NFoXDTM2MTEyMDA4NDA1NFowGzEZMBcGA1UEAxMQZXhhbXBsZS5vcmcgcm9vdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKRYbgbR/RIsnOqy8tlh3RomwsCBwjNOttqJYh/bJJrBCvdRjAnbje49V/Uq9Sx00J+1Lsr78xh+m0xP1rmbewajQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBT+0zHt2KCtk05kmrLREvPrePKegDAKBggqhkjOPQQDAgNIADBFAiEAhNJzPzBmb1tdB3HrMqM8iaW1IqmObZLlS4aOAsqlKOgCIGjMdqVvnJC9J19SwkOWKbuSBjQ3cr3qegmlAiBQaQqa';
const LAYER = (mediaType: string, title: string, extra: Record<string, string> = {}) => ({
  mediaType,
  digest: SHA('b'),
  size: 1843,
  annotations: { 'org.opencontainers.image.title': title, ...extra },
});

const hostingDevice = {
  properties: {
    id: 'northstar-edge-0042',
    vendor: 'Northstar Devices',
    modelNumber: 'NS-EG200',
    serialNumber: 'SN-2024-000042',
    cpus: [{ cores: 4, architecture: 'arm64' }, { cores: 0.5 }],
    memory: '16 Gi',
    storage: '256 Gi',
    peripherals: [{ type: 'gpu', manufacturer: 'NVIDIA', model: 'Orin' }, { type: 'camera' }],
    interfaces: [{ type: 'ethernet' }, { type: 'wifi' }, { type: 'cellular' }],
    otelCollector: true,
    supportedRuntimes: ['oci'],
    supportedDeploymentTypes: ['helm', 'compose'],
  },
  labels: {
    'example.com/site': 'plant-7',
    'example.com/rack': 12,
    'example.com/gpu': true,
    'example.com/zones': ['a', 'b'],
    'example.com/ports': [80, 443],
  },
  'x-acme-extensions': { firmware: { channel: 'stable', version: '2.1.0' } },
};
const seeThruGateway = { properties: { id: 'gw-01', vendor: 'Northstar Devices', modelNumber: 'NS-GW1', serialNumber: 'GW-0001' } };
const childDevice = {
  properties: {
    ...hostingDevice.properties,
    id: 'gw-01/line-3/plc.7~a',
    memory: '512Mi',
    peripherals: [],
    supportedRuntimes: ['custom', 'wasm'],
    supportedDeploymentTypes: ['custom'],
  },
  labels: { 'example.com/runtime': 'plc-native', 'example.com/empty': [] },
};
const statusInstalled = {
  apiVersion: 'deployment.platform.org/v1alpha1',
  kind: 'DeploymentStatusManifest',
  deploymentId: UUID,
  adoptedManifestVersion: 3,
  status: { state: 'installed' },
  components: [
    { name: 'digitron-orchestrator', state: 'installed' },
    { name: 'database-services', state: 'installed' },
  ],
};
const statusFailed = {
  deploymentId: UUID.toUpperCase(),
  deviceId: 'gw-01/plc-7',
  adoptedManifestVersion: 1,
  status: { state: 'failed', error: { code: '101', source: 'gw-01', message: 'Unknown child device ID' } },
  components: [
    {
      name: 'digitron-orchestrator',
      state: 'failed',
      error: { code: 'E42', source: 'digitron-orchestrator', message: 'image pull failed' },
    },
  ],
};
const noError = { code: '', source: '', message: '' };
const statusEmptyError = {
  deploymentId: UUID,
  adoptedManifestVersion: 0,
  status: { state: 'installing', error: noError },
  components: [{ name: 'digitron-orchestrator', state: 'installing', error: noError }],
};
const trustBundle = {
  spiffe_sequence: 12,
  spiffe_refresh_hint: 300,
  keys: [
    {
      kty: 'EC',
      crv: 'P-256',
      use: 'x509-svid',
      x: 'pFhuBtH9Eiyc6rLy2WHdGibCwIHCM0622oliH9skmsE',
      y: 'CvdRjAnbje49V_Uq9Sx00J-1Lsr78xh-m0xP1rmbewY',
      x5c: [CA_DER],
    },
    {
      kty: 'EC',
      crv: 'P-256',
      use: 'jwt-svid',
      kid: 'c2pM3jZ8',
      x: 'wBQNN28xmBE_wgWuhWTkqswf2K1rDwAHw-wVyUdsMJU',
      y: 'Qrtr06-d-udbbwoyJqyS_MrNd-QLjyHum4q8A4dvlTU',
    },
  ],
  next_rotation: 'unknown fields are tolerated',
};
const appPackage = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  artifactType: 'application/vnd.platform.app.v1+json',
  config: EMPTY_CONFIG,
  layers: [
    LAYER('application/vnd.platform.app.description.v1+yaml', 'margo.yaml'),
    LAYER('application/vnd.platform.app.icon.v1+png', 'resources/icon.png', { 'org.platform.app.resource': 'icon' }),
    LAYER('application/vnd.platform.app.licenseFile.v1+markdown', 'resources/license.md', { 'org.platform.app.resource': 'licenseFile' }),
  ],
  annotations: { 'org.opencontainers.image.created': '2025-01-01T00:00:00Z' },
};
const composeManifest = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  artifactType: 'application/vnd.org.platform.component.compose+json',
  config: EMPTY_CONFIG,
  layers: [
    LAYER('application/vnd.org.platform.component.compose.tar+gzip', 'digitron-orchestrator', {
      'org.platform.component.type': 'compose',
      'org.platform.component.version': '1.2.0-rc.1+build.5',
      'org.opencontainers.image.authors': 'Northstar (ops@example.com)',
    }),
  ],
};
const imageManifest = {
  schemaVersion: 2,
  config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: SHA('c'), size: 7023 },
  layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: SHA('d'), size: 32654 }],
  subject: { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: SHA('e'), size: 7682 },
};
const deploymentUrl = `/api/v1/clients/c1/deployments/${UUID}/${SHA('a')}`;
const stateWithDeployments = {
  manifestVersion: 7,
  bundle: {
    mediaType: 'application/vnd.platform.bundle.v1+tar+gzip',
    digest: SHA('f'),
    sizeBytes: 2048,
    url: `/api/v1/clients/c1/bundles/${SHA('f')}`,
  },
  deployments: [{ deploymentId: UUID, digest: SHA('a'), sizeBytes: 912, url: deploymentUrl }],
};
const applicationDeployment = {
  apiVersion: 'application.platform.org/v1alpha1',
  kind: 'ApplicationDeployment',
  metadata: {
    name: 'digitron-orchestrator-deployment',
    namespace: 'platform',
    deviceId: 'gw-01/*',
    annotations: { id: UUID, applicationId: 'com-northstartida-digitron-orchestrator' },
  },
  spec: {
    deploymentProfile: {
      type: 'compose',
      components: [
        {
          name: 'digitron-orchestrator',
          properties: { repository: 'oci://registry.example.com/northstar/digitron', revision: '1.2.0', wait: true, timeout: '10m0s' },
        },
      ],
    },
    parameters: { idleTimeReportInterval: { value: 60, targets: [{ pointer: 'ENV.IDLE_TIME', components: ['digitron-orchestrator'] }] } },
  },
};
const applicationDescription = {
  apiVersion: 'platform.org/v1-alpha1',
  kind: 'ApplicationDescription',
  metadata: {
    id: 'com-northstartida-digitron-orchestrator',
    name: 'Digitron orchestrator',
    version: '1.2.0',
    catalog: { application: { icon: 'resources/icon.png', licenseFile: 'resources/license.md' }, author: [{ name: 'Roger Wilkershank' }] },
  },
  deploymentProfiles: [{ type: 'compose', components: [{ name: 'digitron-orchestrator' }] }],
};

const onboardingRequest = { apiVersion: 'onboarding.platform.org/v1', kind: 'OnboardingRequest', certificate: CA_DER };
const onboardingResponse = { clientId: 'o-L1bJEuRUeIO3xWQuQVBg==' };
const discovery = { trustDomain: 'example.org', trustBundleUri: 'https://id.example.org/bundle', v: 2 };
const tagList = { name: 'northstar/digitron-orchestrator', tags: ['1.0.0', '1.2.0'] };

const EXAMPLES: [string, SchemaName, unknown][] = [
  ['a hosting device with labels of each value type and an x-acme-extensions block', 'DeviceCapabilities', hostingDevice],
  ['an identity-only see-thru gateway', 'DeviceCapabilities', seeThruGateway],
  ['a child device behind a gateway, custom runtime, compact quantity', 'DeviceCapabilities', childDevice],
  ['a device with an unknown root key', 'DeviceCapabilities', { ...seeThruGateway, apiVersion: 'v1' }],
  ['an onboarding request', 'OnboardingRequest', onboardingRequest],
  ['an onboarding response with a base64url UUID', 'OnboardingResponse', onboardingResponse],
  ['a status report without error', 'DeploymentStatusReport', statusInstalled],
  ['a status report with a gateway error', 'DeploymentStatusReport', statusFailed],
  ['a status report with empty-string errors', 'DeploymentStatusReport', statusEmptyError],
  ['a discovery document with an unknown field', 'DiscoveryDocument', discovery],
  ['a SPIFFE bundle with an x509-svid and a jwt-svid key', 'TrustBundle', trustBundle],
  ['an app package manifest', 'AppPackageManifest', appPackage],
  ['a compose component manifest', 'ComposeComponentManifest', composeManifest],
  ['an OCI image manifest', 'OciImageManifest', imageManifest],
  ['an app package manifest as an OCI image manifest', 'OciImageManifest', appPackage],
  ['a tag list', 'TagList', tagList],
  ['a state manifest with bundle null', 'StateManifest', { manifestVersion: 1, bundle: null, deployments: [] }],
  ['a state manifest with deployments', 'StateManifest', stateWithDeployments],
  ['an ApplicationDeployment', 'ApplicationDeployment', applicationDeployment],
  ['an application description', 'ApplicationDescription', applicationDescription],
];

for (const [title, name, doc] of EXAMPLES) {
  test(`${name}: ${title} is valid`, () => {
    const result = validate(name, doc);
    assert.ok(result.ok, result.ok ? '' : formatSchemaErrors(result.errors));
  });

  test(`${name}: ${title}, with any required field removed or any value of the wrong type, is invalid at that field`, () => {
    const mutations = schemaMutations(schemaOf(name), doc);
    assert.ok(mutations.some((m) => m.kind === 'missing') && mutations.some((m) => m.kind === 'wrongType'));
    for (const m of mutations) {
      const result = validate(name, m.document);
      assert.equal(result.ok, false, `${m.kind} ${m.path} was accepted`);
      if (!result.ok)
        assert.ok(
          result.errors.some((e) => e.path === m.path),
          `${m.kind} ${m.path}:\n${formatSchemaErrors(result.errors)}`,
        );
    }
  });
}

/** A copy of `doc` with the value at a JSON Pointer replaced. */
function withValue(doc: unknown, pointer: string, value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  const segs = pointer
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent = copy;
  for (const seg of segs.slice(0, -1)) parent = parent[seg] as Record<string, unknown>;
  parent[segs[segs.length - 1]!] = value;
  return copy;
}

/** [title, schema, valid document, pointer to change, new value, path of the expected error if not the pointer] */
const INVALID: [string, SchemaName, unknown, string, unknown, string?][] = [
  ['an empty deviceId segment', 'DeviceCapabilities', seeThruGateway, '/properties/id', 'gw-01//plc'],
  ['a deviceId with a trailing slash', 'DeviceCapabilities', seeThruGateway, '/properties/id', 'gw-01/'],
  ['a deviceId with a reserved character', 'DeviceCapabilities', seeThruGateway, '/properties/id', 'gw 01'],
  ['a deviceId ending in /* (only deployments may)', 'DeviceCapabilities', seeThruGateway, '/properties/id', 'gw-01/*'],
  ['zero cores', 'DeviceCapabilities', hostingDevice, '/properties/cpus/0/cores', 0],
  ['an unknown architecture', 'DeviceCapabilities', hostingDevice, '/properties/cpus/0/architecture', 'riscv64'],
  ['an unknown peripheral type', 'DeviceCapabilities', hostingDevice, '/properties/peripherals/1/type', 'lidar'],
  ['an unknown interface type', 'DeviceCapabilities', hostingDevice, '/properties/interfaces/0/type', 'zigbee'],
  ['a label array mixing strings and numbers', 'DeviceCapabilities', hostingDevice, '/labels/example.com~1zones', ['a', 1]],
  ['a label holding an object', 'DeviceCapabilities', hostingDevice, '/labels/example.com~1site', { a: 1 }],
  ['an extension that is not an object', 'DeviceCapabilities', hostingDevice, '/x-acme-extensions', 'on'],
  ['an unknown field inside properties', 'DeviceCapabilities', seeThruGateway, '/properties/cpu', [{ cores: 1 }]],
  ['a kind other than OnboardingRequest', 'OnboardingRequest', onboardingRequest, '/kind', 'Onboarding'],
  ['a certificate that is not base64', 'OnboardingRequest', onboardingRequest, '/certificate', '-----BEGIN CERTIFICATE-----'],
  ['a clientId that is not URL-safe', 'OnboardingResponse', onboardingResponse, '/clientId', 'a/b+c'],
  ['a deploymentId that is not a UUID', 'DeploymentStatusReport', statusInstalled, '/deploymentId', 'deploy-1'],
  ['an unknown state', 'DeploymentStatusReport', statusInstalled, '/status/state', 'running'],
  ['a negative adoptedManifestVersion', 'DeploymentStatusReport', statusInstalled, '/adoptedManifestVersion', -1],
  ['a fractional adoptedManifestVersion', 'DeploymentStatusReport', statusInstalled, '/adoptedManifestVersion', 2.5],
  ['status written as a list', 'DeploymentStatusReport', statusInstalled, '/status', [{ state: 'installed' }]],
  ['a kind other than DeploymentStatusManifest', 'DeploymentStatusReport', statusInstalled, '/kind', 'Status'],
  ['a trustBundleUri that is not a URI', 'DiscoveryDocument', discovery, '/trustBundleUri', 'not a uri'],
  ['a trust domain with a scheme', 'DiscoveryDocument', discovery, '/trustDomain', 'spiffe://example.org'],
  ['an empty kty', 'TrustBundle', trustBundle, '/keys/0/kty', ''],
  ['the artifactType of another vendor', 'AppPackageManifest', appPackage, '/artifactType', 'application/vnd.margo.app.v1+json'],
  ['a config that is not the empty descriptor', 'AppPackageManifest', appPackage, '/config/digest', SHA('0')],
  ['a second description layer', 'AppPackageManifest', appPackage, '/layers/1', appPackage.layers[0], '/layers'],
  ['no description layer', 'AppPackageManifest', appPackage, '/layers', appPackage.layers.slice(1)],
  [
    'a resource layer without the resource annotation',
    'AppPackageManifest',
    appPackage,
    '/layers/1/annotations',
    { 'org.opencontainers.image.title': 'i.png' },
    '/layers/1/annotations/org.platform.app.resource',
  ],
  ['a layer of an unknown media type', 'AppPackageManifest', appPackage, '/layers/2/mediaType', 'application/octet-stream'],
  ['a digest without algorithm', 'AppPackageManifest', appPackage, '/layers/0/digest', 'b'.repeat(64)],
  ['a second compose layer', 'ComposeComponentManifest', composeManifest, '/layers/1', composeManifest.layers[0], '/layers'],
  [
    'a component type other than compose',
    'ComposeComponentManifest',
    composeManifest,
    '/layers/0/annotations/org.platform.component.type',
    'helm',
  ],
  [
    'a component version with a leading v',
    'ComposeComponentManifest',
    composeManifest,
    '/layers/0/annotations/org.platform.component.version',
    'v1.2.0',
  ],
  [
    'a component version that is not SemVer',
    'ComposeComponentManifest',
    composeManifest,
    '/layers/0/annotations/org.platform.component.version',
    '1.2',
  ],
  ['a tag outside the OCI tag grammar', 'TagList', tagList, '/tags/0', '.hidden'],
  ['manifestVersion 0', 'StateManifest', stateWithDeployments, '/manifestVersion', 0],
  ['a fractional manifestVersion', 'StateManifest', stateWithDeployments, '/manifestVersion', 1.5],
  ['a bundle of another media type', 'StateManifest', stateWithDeployments, '/bundle/mediaType', 'application/gzip'],
  ['a deployment digest outside the grammar', 'StateManifest', stateWithDeployments, '/deployments/0/digest', 'SHA256:AB'],
  [
    'a repository that is not oci://',
    'ApplicationDeployment',
    applicationDeployment,
    '/spec/deploymentProfile/components/0/properties/repository',
    'https://r.example.com/x',
  ],
  [
    'a revision with a leading v',
    'ApplicationDeployment',
    applicationDeployment,
    '/spec/deploymentProfile/components/0/properties/revision',
    'v1.2.0',
  ],
  ['a deviceId with * in the middle', 'ApplicationDeployment', applicationDeployment, '/metadata/deviceId', 'gw-01/*/plc'],
  ['an id annotation that is not a UUID', 'ApplicationDeployment', applicationDeployment, '/metadata/annotations/id', 'dep-1'],
  ['no components', 'ApplicationDeployment', applicationDeployment, '/spec/deploymentProfile/components', []],
  ['an empty version', 'ApplicationDescription', applicationDescription, '/metadata/version', ''],
];

for (const [title, name, doc, pointer, value, errorPath = pointer] of INVALID) {
  test(`${name}: ${title} is invalid at ${errorPath}`, () => {
    const result = validate(name, withValue(doc, pointer, value));
    assert.equal(result.ok, false);
    if (!result.ok)
      assert.ok(
        result.errors.some((e) => e.path === errorPath),
        formatSchemaErrors(result.errors),
      );
  });
}
