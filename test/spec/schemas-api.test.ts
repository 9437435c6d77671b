// The schemas module's API: names, raw schemas, vendor tokens (P1) and readable errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mediaTypes, OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { SCHEMA_NAMES, formatSchemaErrors, schemaOf, validate } from '../../spec/schemas/index.ts';

const identity = { id: 'gw-01', vendor: 'v', modelNumber: 'm', serialNumber: 's' };

test('every schema name compiles in ajv strict mode as a titled draft 2020-12 schema', () => {
  assert.equal(SCHEMA_NAMES.length, 15);
  for (const name of SCHEMA_NAMES) {
    assert.equal(schemaOf(name).$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schemaOf(name).title, name);
    assert.equal(validate(name, 'not an object').ok, false);
  }
});

test('schemaOf returns one frozen object per name and vendor', () => {
  const schema = schemaOf('DeviceCapabilities');
  assert.equal(schemaOf('DeviceCapabilities'), schema);
  assert.ok(Object.isFrozen(schema) && Object.isFrozen(schema.properties));
  assert.throws(() => ((schema.properties as Record<string, unknown>).labels = {}));
  assert.equal(schemaOf('DeviceCapabilities', 'margo'), schema);
  assert.notEqual(schemaOf('StateManifest', 'margo'), schemaOf('StateManifest'));
});

test('errors read `path: message` with the path naming the field', () => {
  const result = validate('DeviceCapabilities', { properties: { ...identity, vendor: undefined, cpus: [{ cores: '4' }] }, extra: 1 });
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.equal(formatSchemaErrors(result.errors), '/properties/vendor: is required\n/properties/cpus/0/cores: must be number');
  }
});

test('const, enum and root errors name the allowed values and the root as /', () => {
  const kind = validate('OnboardingRequest', { apiVersion: 'v1', kind: 'Onboarding', certificate: 'AAAA' });
  assert.deepEqual(kind, { ok: false, errors: [{ path: '/kind', message: 'must be "OnboardingRequest"' }] });
  const arch = validate('DeviceCapabilities', { properties: { ...identity, cpus: [{ cores: 1, architecture: 'x86' }] } });
  assert.deepEqual(arch, {
    ok: false,
    errors: [{ path: '/properties/cpus/0/architecture', message: 'must be one of "amd64", "arm64", "arm"' }],
  });
  assert.deepEqual(validate('TagList', []), { ok: false, errors: [{ path: '/', message: 'must be object' }] });
});

test('P1: the package and compose manifests follow the vendor token', () => {
  const margo = mediaTypes('margo');
  const pkg = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: margo.appArtifact,
    config: OCI_EMPTY_DESCRIPTOR,
    layers: [
      {
        mediaType: margo.appDescription,
        digest: OCI_EMPTY_DESCRIPTOR.digest,
        size: 2,
        annotations: { 'org.opencontainers.image.title': 'margo.yaml' },
      },
    ],
  };
  assert.deepEqual(validate('AppPackageManifest', pkg, { vendor: 'margo' }), { ok: true });
  assert.equal(validate('AppPackageManifest', pkg).ok, false);
  const layer = {
    mediaType: margo.composeLayer,
    digest: OCI_EMPTY_DESCRIPTOR.digest,
    size: 2,
    annotations: { [margo.annotation.componentType]: 'compose', [margo.annotation.componentVersion]: '0.1.0' },
  };
  const compose = { ...pkg, artifactType: margo.composeArtifact, layers: [layer] };
  assert.deepEqual(validate('ComposeComponentManifest', compose, { vendor: 'margo' }), { ok: true });
  assert.equal(validate('ComposeComponentManifest', compose).ok, false);
});

test('P1: the state manifest bundle media type follows the vendor token', () => {
  const digest = OCI_EMPTY_DESCRIPTOR.digest;
  const doc = {
    manifestVersion: 2,
    bundle: { mediaType: mediaTypes('margo').deploymentBundle, digest, url: `/b/${digest}` },
    deployments: [],
  };
  assert.deepEqual(validate('StateManifest', doc, { vendor: 'margo' }), { ok: true });
  assert.equal(validate('StateManifest', doc).ok, false);
});

test('P4: manifestVersion accepts integers past 2^53, which JSON cannot carry exactly', () => {
  assert.deepEqual(validate('StateManifest', { manifestVersion: 2 ** 64 - 1, bundle: null, deployments: [] }), { ok: true });
});
