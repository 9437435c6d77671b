// The fleet's compact descriptions change no byte a device sends: same ids, kinds, faults, hierarchy and documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeDevice } from '../../simulators/data/describe.ts';
import { FAULT_NAMES } from '../../simulators/data/misbehaviour.ts';
import { capabilitiesOf } from '../../simulators/device/documents.ts';
import type { DeviceDescription, DeviceMisbehaviour } from '../../simulators/device/types.ts';
import { compactDescription } from '../../simulators/fleet/compact-description.ts';
import { hierarchy } from '../../simulators/gateways/see-thru.ts';
import { fcOptions } from '../support/fc.ts';

const description = fc
  .record({
    seed: fc.nat(),
    index: fc.nat({ max: 999_999 }),
    kind: fc.constantFrom('plain' as const, 'see-thru-gateway' as const, 'opaque-gateway' as const),
    children: fc.integer({ min: 1, max: 3 }),
    depth: fc.integer({ min: 1, max: 2 }),
    hostsWorkloads: fc.boolean(),
    quantityFormat: fc.constantFrom('spaced' as const, 'compact' as const),
    faults: fc.subarray([...FAULT_NAMES]),
  })
  .map(({ seed, index, kind, faults, ...opts }) => ({
    format: opts.quantityFormat,
    desc: describeDevice(seed, index, kind, { ...opts, faults: Object.fromEntries(faults.map((f) => [f, true])) as DeviceMisbehaviour }),
  }));

/** Everything a device reads of its description, as the bytes and values it would send or decide on. */
function view(d: DeviceDescription, format: 'spaced' | 'compact'): unknown {
  return {
    kind: d.kind,
    id: d.id,
    faults: { ...d.faults },
    hostsWorkloads: d.hostsWorkloads === true,
    document: JSON.stringify(capabilitiesOf(d, format)),
    own: JSON.stringify(d.capabilities),
    children: (d.children ?? []).map((c) => view(c, format)),
    registrationOrder: d.kind === 'see-thru-gateway' ? hierarchy(d).map((x) => x.id) : [],
  };
}

test('a compact description reads exactly as the description it was made from (every kind, fault and format)', () => {
  fc.assert(
    fc.property(description, ({ desc, format }) => {
      assert.deepEqual(view(compactDescription(desc), format), view(desc, format));
    }),
    fcOptions(200),
  );
});

test('after its first read a compact description makes its document again, the same every time (every kind and format)', () => {
  fc.assert(
    fc.property(description, ({ desc }) => {
      const compact = compactDescription(desc);
      const sent = JSON.stringify(desc.capabilities);
      for (let read = 0; read < 3; read++) assert.equal(JSON.stringify(compact.capabilities), sent, `read ${read + 1}`);
      for (const [i, child] of (compact.children ?? []).entries())
        for (let read = 0; read < 2; read++)
          assert.equal(JSON.stringify(child.capabilities), JSON.stringify(desc.children![i]!.capabilities));
    }),
    fcOptions(100),
  );
});

test('a description not made by describeDevice keeps its document as text: nothing to make it again from', () => {
  const made = describeDevice(5, 9, 'plain');
  const edited: DeviceDescription = {
    ...made,
    capabilities: { ...made.capabilities, properties: { ...made.capabilities.properties, vendor: 'edited' } },
  };
  const compact = compactDescription(edited);
  for (let read = 0; read < 3; read++) assert.equal(compact.capabilities.properties.vendor, 'edited');
});

test('each read of the document is a fresh object: changing one changes nothing the device sends later', () => {
  const compact = compactDescription(describeDevice(3, 7, 'plain'));
  const first = compact.capabilities;
  first.properties.vendor = 'changed';
  assert.notEqual(compact.capabilities.properties.vendor, 'changed');
  assert.notEqual(compact.capabilities, compact.capabilities);
});

test('compacting twice keeps the same object; devices without faults share one frozen empty set', () => {
  const a = compactDescription(describeDevice(1, 1, 'plain'));
  const b = compactDescription(describeDevice(1, 2, 'plain'));
  assert.equal(compactDescription(a), a);
  assert.equal(a.faults, b.faults);
  assert.ok(Object.isFrozen(a.faults));
});

test("the first read hands over the description's own document (the fleet drops it), and later reads make their own", () => {
  const desc = describeDevice(4, 2, 'plain');
  const compact = compactDescription(desc);
  assert.equal(compact.capabilities, desc.capabilities);
  const second = compact.capabilities;
  assert.notEqual(second, desc.capabilities);
  assert.deepEqual(second, desc.capabilities);
});
