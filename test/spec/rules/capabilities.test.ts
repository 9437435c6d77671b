import { fcOptions } from '../../support/fc.ts';
import { hostingDocument } from '../../../fixtures/documents/capabilities.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CPU_ARCHITECTURES, INTERFACE_TYPES, PERIPHERAL_TYPES, type DeviceCapabilities, type Properties } from '../../../spec/types.ts';
import {
  classifyDocument,
  extensionKeys,
  HOSTING_FIELDS,
  idMatchesPath,
  normalizeDeploymentTypes,
  normalizeRuntimes,
  semanticFindings,
} from '../../../spec/rules/capabilities.ts';

const fcOpts = fcOptions(200);
const rules = (doc: DeviceCapabilities, ctx?: Parameters<typeof semanticFindings>[1]) => semanticFindings(doc, ctx).map((f) => f.rule);

const identity = { id: 'gw-1', vendor: 'Acme', modelNumber: 'G100', serialNumber: 'SN-1' };
const hosting = (over: Partial<Properties> = {}): DeviceCapabilities => hostingDocument(identity.id, { ...identity, ...over });

test('§2.1.1: a complete hosting document has no semantic finding', () => {
  assert.equal(classifyDocument(hosting().properties), 'hosting');
  assert.deepEqual(semanticFindings(hosting()), []);
});

test('§2.2: a non-hosting see-thru gateway reports only the identity fields', () => {
  assert.equal(classifyDocument(identity), 'identity-only');
  assert.deepEqual(semanticFindings({ properties: identity }), []);
});

test('§2.2: some but not all Y* fields is a partial document', () => {
  const doc: DeviceCapabilities = { properties: { ...identity, cpus: [{ cores: 1 }], otelCollector: true } };
  assert.equal(classifyDocument(doc.properties), 'partial');
  const [f] = semanticFindings(doc);
  assert.equal(f?.rule, 'hosting-fields-partial');
  assert.match(f!.message, /§2\.2: .*lacks memory, storage, peripherals, interfaces, supportedRuntimes, supportedDeploymentTypes/);
});

test('§2.1.1: a hosting device MUST report otelCollector true and at least one runtime and deployment type', () => {
  assert.deepEqual(rules(hosting({ otelCollector: false })), ['otel-collector-required']);
  assert.deepEqual(rules(hosting({ supportedRuntimes: [] })), ['runtimes-required']);
  assert.deepEqual(rules(hosting({ supportedDeploymentTypes: [] })), ['deployment-types-required']);
});

test('§2.1.1: "custom" needs labels; one label is enough', () => {
  const custom = hosting({ supportedRuntimes: ['custom'] });
  assert.deepEqual(semanticFindings(custom), [
    {
      rule: 'custom-needs-labels',
      message: '§2.1.1: supportedRuntimes has "custom" but the document has no labels',
      path: '/properties/supportedRuntimes',
    },
  ]);
  assert.deepEqual(rules({ ...custom, labels: {} }), ['custom-needs-labels']);
  assert.deepEqual(semanticFindings({ ...custom, labels: { 'example.com/runtime': 'wasm' } }), []);
  assert.deepEqual(rules(hosting({ supportedDeploymentTypes: ['custom'] })), ['custom-needs-labels']);
});

test('§2.1.1: an unknown value defaults to "custom", so it needs labels too, under its own rule name', () => {
  assert.deepEqual(rules(hosting({ supportedDeploymentTypes: ['helm.v3'] })), ['defaulted-custom-needs-labels']);
  assert.deepEqual(semanticFindings({ ...hosting({ supportedRuntimes: ['wasm'] }), labels: { 'example.com/wasm': true } }), []);
});

test('unknown runtimes and deployment types normalise to custom, order kept, duplicates removed', () => {
  assert.deepEqual(normalizeRuntimes(['wasm', 'oci', 'OCI', 'custom', 'oci']), ['custom', 'oci']);
  assert.deepEqual(normalizeDeploymentTypes(['compose', 'helm.v3', 'helm', 'compose']), ['compose', 'custom', 'helm']);
  assert.deepEqual(normalizeRuntimes([]), []);
});

test('§2.1.1: memory and storage must parse in their own units', () => {
  assert.deepEqual(rules(hosting({ memory: '16 GB' })), ['memory-quantity']);
  assert.deepEqual(rules(hosting({ memory: '1 Ti' })), ['memory-quantity']);
  assert.deepEqual(rules(hosting({ storage: '1 Ti' })), []);
  assert.deepEqual(rules(hosting({ storage: 'lots' })), ['storage-quantity']);
});

test('P8: both quantity forms pass by default; a profile may restrict to one', () => {
  assert.deepEqual(rules(hosting({ memory: '16Gi' })), []);
  assert.deepEqual(rules(hosting({ memory: '16Gi' }), { quantityFormats: 'spaced' }), ['quantity-format']);
  assert.deepEqual(rules(hosting(), { quantityFormats: 'compact' }), ['quantity-format', 'quantity-format']);
});

test('§2.1.1: every cpus entry offers more than 0 cores', () => {
  const [f] = semanticFindings(hosting({ cpus: [{ cores: 2 }, { cores: 0 }] }));
  assert.deepEqual(f, {
    rule: 'cpu-cores-positive',
    message: '§2.1.1: cpus[1].cores is 0; an entry must offer more than 0 cores',
    path: '/properties/cpus/1/cores',
  });
  assert.deepEqual(rules(hosting({ cpus: [{ cores: -1 }] })), ['cpu-cores-positive']);
});

test('§2.1.1: properties.id must follow the deviceId grammar', () => {
  assert.deepEqual(rules({ properties: { ...identity, id: 'gw 1' } }), ['device-id-syntax']);
  assert.deepEqual(rules({ properties: { ...identity, id: 'gw/../x' } }), ['device-id-syntax']);
});

test('§4.1: properties.id must equal the path deviceId', () => {
  const child: DeviceCapabilities = { properties: { ...identity, id: 'gw-1/cam-2' } };
  assert.deepEqual(idMatchesPath(child, 'gw-1/cam-2'), []);
  assert.equal(idMatchesPath(child, 'cam-2')[0]?.rule, 'id-matches-path');
});

test('§2.1: extension keys are found at the root and never cause a finding', () => {
  const doc = { ...hosting(), 'x-acme-extensions': { a: 1 }, 'x--extensions': {}, 'x-acme': {} } as DeviceCapabilities;
  assert.deepEqual(extensionKeys(doc), ['x-acme-extensions']);
  assert.deepEqual(semanticFindings(doc), []);
});

const knownOrNot = (known: readonly string[]) =>
  fc.array(fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 6 })), { maxLength: 8 });

test('property: normalisation is idempotent, keeps first-seen order and yields only known values', () => {
  fc.assert(
    fc.property(knownOrNot(['oci', 'custom']), knownOrNot(['helm', 'compose', 'custom']), (runtimes, types) => {
      const r = normalizeRuntimes(runtimes);
      assert.deepEqual(normalizeRuntimes(r), r);
      assert.equal(new Set(r).size, r.length);
      assert.ok(r.every((v) => v === 'oci' || v === 'custom'));
      assert.deepEqual(r, [...new Set(runtimes.map((v) => (v === 'oci' ? 'oci' : 'custom')))]);
      const t = normalizeDeploymentTypes(types);
      assert.deepEqual(normalizeDeploymentTypes(t), t);
      assert.ok(t.every((v) => ['helm', 'compose', 'custom'].includes(v)));
    }),
    fcOpts,
  );
});

const hostingArb: fc.Arbitrary<DeviceCapabilities> = fc
  .record({
    cpus: fc.array(
      fc.record(
        { cores: fc.integer({ min: 1, max: 128 }).map((n) => n / 2), architecture: fc.constantFrom(...CPU_ARCHITECTURES) },
        { requiredKeys: ['cores'] },
      ),
      { maxLength: 4 },
    ),
    memory: fc.tuple(fc.nat(4096), fc.constantFrom('Ki', 'Mi', 'Gi'), fc.constantFrom(' ', '')).map(([n, u, s]) => `${n}${s}${u}`),
    storage: fc
      .tuple(fc.nat(4096), fc.constantFrom('Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'), fc.constantFrom(' ', ''))
      .map(([n, u, s]) => `${n}${s}${u}`),
    peripherals: fc.array(fc.record({ type: fc.constantFrom(...PERIPHERAL_TYPES) }), { maxLength: 3 }),
    interfaces: fc.array(fc.record({ type: fc.constantFrom(...INTERFACE_TYPES) }), { maxLength: 3 }),
    supportedRuntimes: fc.constant<string[]>(['oci']),
    supportedDeploymentTypes: fc.subarray(['helm', 'compose'], { minLength: 1 }),
  })
  .map((p) => ({ properties: { ...identity, ...p, otelCollector: true } }));

test('property: generated hosting documents are clean, and dropping any Y* field makes them partial', () => {
  fc.assert(
    fc.property(hostingArb, fc.constantFrom(...HOSTING_FIELDS), (doc, field) => {
      assert.deepEqual(semanticFindings(doc), []);
      const { [field]: _dropped, ...rest } = doc.properties;
      assert.deepEqual(rules({ properties: rest as Properties }), ['hosting-fields-partial']);
    }),
    fcOpts,
  );
});

test('property: extensions and labels never add a finding to a clean document', () => {
  const extArb = fc.dictionary(
    fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/).map((n) => `x-${n}-extensions`),
    fc.object(),
    { maxKeys: 3 },
  );
  fc.assert(
    fc.property(hostingArb, extArb, fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }), (doc, exts, labels) => {
      assert.deepEqual(semanticFindings({ ...doc, ...exts, labels } as DeviceCapabilities), []);
    }),
    fcOpts,
  );
});
