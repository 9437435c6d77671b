import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CPU_ARCHITECTURES, INTERFACE_TYPES, PERIPHERAL_TYPES, type Properties } from '../../../spec/types.ts';
import { aggregateOpaque, checkOpaqueAggregation, type OpaqueGateway } from '../../../spec/rules/opaque-aggregation.ts';
import { semanticFindings } from '../../../spec/rules/capabilities.ts';
import { parseQuantity } from '../../../spec/rules/quantity.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(200);

const gateway: OpaqueGateway = { id: 'opaque-gw', vendor: 'Acme', modelNumber: 'OG-1', serialNumber: 'SN-9', deploymentTypes: ['compose'] };
const child = (n: number, over: Partial<Properties> = {}): Properties => ({
  id: `child-${n}`,
  vendor: 'Acme',
  modelNumber: 'C',
  serialNumber: `C-${n}`,
  cpus: [{ cores: 2, architecture: 'arm64' }],
  memory: '4 Gi',
  storage: '32 Gi',
  peripherals: [{ type: 'camera' }],
  interfaces: [{ type: 'ethernet' }],
  otelCollector: true,
  supportedRuntimes: ['oci'],
  supportedDeploymentTypes: ['helm'],
  ...over,
});
const children = [
  child(1),
  child(2, {
    cpus: [
      { cores: 1, architecture: 'arm' },
      { cores: 0.5, architecture: 'arm' },
    ],
    memory: '512Mi',
    interfaces: [{ type: 'ethernet' }, { type: 'wifi' }],
    supportedRuntimes: ['oci', 'custom'],
  }),
];

test("§2.2: one cpus entry per child CPU, memory and storage summed, interfaces added, the gateway's deployment types", () => {
  const doc = aggregateOpaque({ ...gateway, labels: { 'acme.com/kind': 'opaque' } }, children);
  assert.deepEqual(doc.properties, {
    id: 'opaque-gw',
    vendor: 'Acme',
    modelNumber: 'OG-1',
    serialNumber: 'SN-9',
    cpus: [
      { cores: 2, architecture: 'arm64' },
      { cores: 1, architecture: 'arm' },
      { cores: 0.5, architecture: 'arm' },
    ],
    memory: '4608 Mi',
    storage: '64 Gi',
    peripherals: [{ type: 'camera' }, { type: 'camera' }],
    interfaces: [{ type: 'ethernet' }, { type: 'ethernet' }, { type: 'wifi' }],
    otelCollector: true,
    supportedRuntimes: ['oci', 'custom'],
    supportedDeploymentTypes: ['compose'],
  });
  assert.deepEqual(doc.labels, { 'acme.com/kind': 'opaque' });
  assert.deepEqual(semanticFindings(doc), []);
  assert.deepEqual(checkOpaqueAggregation(doc, children, ['compose']), []);
});

test('P8: the aggregate can be written in the compact form', () => {
  assert.equal(aggregateOpaque(gateway, children, 'compact').properties.memory, '4608Mi');
});

test('an identity-only child adds nothing; no children give zero quantities and empty lists', () => {
  const id = { id: 'x', vendor: 'v', modelNumber: 'm', serialNumber: 's' };
  assert.deepEqual(aggregateOpaque(gateway, [child(1), id]).properties, aggregateOpaque(gateway, [child(1)]).properties);
  const none = aggregateOpaque(gateway, []).properties;
  assert.equal(none.memory, '0 Gi');
  assert.deepEqual(none.cpus, []);
});

test('§2.2: cores summed into one entry is caught as opaque-cpus-one-per-child-cpu', () => {
  const doc = aggregateOpaque(gateway, [child(1), child(2)]);
  const summed = { ...doc, properties: { ...doc.properties, cpus: [{ cores: 4, architecture: 'arm64' as const }] } };
  const [f] = checkOpaqueAggregation(summed, [child(1), child(2)], ['compose']);
  assert.equal(f?.rule, 'opaque-cpus-one-per-child-cpu');
  assert.match(f!.message, /§2\.2: .*merged or summed/);
});

test('§2.2: each aggregation rule has its own finding', () => {
  const doc = aggregateOpaque(gateway, children);
  const broken = (over: Partial<Properties>) =>
    checkOpaqueAggregation({ properties: { ...doc.properties, ...over } }, children, ['compose']).map((f) => f.rule);
  assert.deepEqual(broken({ memory: '4 Gi' }), ['opaque-memory-summed']);
  assert.deepEqual(broken({ storage: undefined }), ['opaque-storage-summed']);
  assert.deepEqual(broken({ interfaces: [{ type: 'ethernet' }, { type: 'wifi' }] }), ['opaque-interfaces-added']);
  assert.deepEqual(broken({ supportedRuntimes: ['oci'] }), ['opaque-runtimes-union']);
  assert.deepEqual(broken({ supportedDeploymentTypes: ['helm'] }), ['opaque-deployment-types-gateway']);
});

test('the check reads quantities by value and lists as sets where order is not part of the rule', () => {
  const doc = aggregateOpaque(gateway, children);
  const same = {
    properties: {
      ...doc.properties,
      memory: '4.5Gi',
      cpus: [...doc.properties.cpus!].reverse(),
      supportedRuntimes: ['custom', 'oci', 'oci'],
    },
  };
  assert.deepEqual(checkOpaqueAggregation(same, children, ['compose']), []);
});

const childArb: fc.Arbitrary<Properties> = fc
  .record({
    cpus: fc.array(
      fc.record(
        { cores: fc.integer({ min: 1, max: 16 }).map((n) => n / 2), architecture: fc.constantFrom(...CPU_ARCHITECTURES) },
        { requiredKeys: ['cores'] },
      ),
      { maxLength: 3 },
    ),
    memory: fc.tuple(fc.nat(2048), fc.constantFrom('Ki', 'Mi', 'Gi')).map(([n, u]) => `${n} ${u}`),
    storage: fc.tuple(fc.nat(2048), fc.constantFrom('Mi', 'Gi', 'Ti')).map(([n, u]) => `${n}${u}`),
    peripherals: fc.array(fc.record({ type: fc.constantFrom(...PERIPHERAL_TYPES) }), { maxLength: 2 }),
    interfaces: fc.array(fc.record({ type: fc.constantFrom(...INTERFACE_TYPES) }), { maxLength: 3 }),
    supportedRuntimes: fc.subarray(['oci', 'custom', 'wasm'], { minLength: 1 }),
  })
  .map((p) => ({ id: 'c', vendor: 'v', modelNumber: 'm', serialNumber: 's', ...p }));

test('property: an aggregate passes its own check; the counts and sums are those of the children', () => {
  fc.assert(
    fc.property(fc.array(childArb, { maxLength: 5 }), fc.subarray(['helm', 'compose', 'custom'], { minLength: 1 }), (kids, types) => {
      const doc = aggregateOpaque({ ...gateway, deploymentTypes: types }, kids);
      assert.deepEqual(checkOpaqueAggregation(doc, kids, types), []);
      assert.equal(
        doc.properties.cpus!.length,
        kids.reduce((n, k) => n + k.cpus!.length, 0),
      );
      assert.equal(
        doc.properties.interfaces!.length,
        kids.reduce((n, k) => n + k.interfaces!.length, 0),
      );
      const mem = parseQuantity(doc.properties.memory!, 'memory');
      const want = kids.reduce((s, k) => {
        const q = parseQuantity(k.memory!, 'memory');
        assert.ok(q.ok);
        return s + q.bytes;
      }, 0n);
      assert.ok(mem.ok && mem.bytes === want);
    }),
    fcOpts,
  );
});

test('property: merging two child CPU entries into one is always caught', () => {
  const twoCpus = childArb.filter((k) => k.cpus!.length >= 2);
  fc.assert(
    fc.property(fc.array(childArb, { maxLength: 3 }), twoCpus, (kids, k) => {
      const all = [...kids, k];
      const doc = aggregateOpaque(gateway, all);
      const cpus = doc.properties.cpus!;
      const [a, b] = cpus.slice(-2) as [{ cores: number }, { cores: number }];
      const merged = [...cpus.slice(0, -2), { ...a, cores: a.cores + b.cores }];
      const rules = checkOpaqueAggregation({ properties: { ...doc.properties, cpus: merged } }, all, gateway.deploymentTypes).map(
        (f) => f.rule,
      );
      assert.deepEqual(rules, ['opaque-cpus-one-per-child-cpu']);
    }),
    fcOpts,
  );
});
