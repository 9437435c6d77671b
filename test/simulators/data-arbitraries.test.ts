// The suites' arbitraries keep their promises: valid documents pass every oracle, invalid ones fail one.
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  componentStates,
  deviceHierarchy,
  hierarchyIds,
  invalidCapabilities,
  validCapabilities,
} from '../../simulators/data/arbitraries.ts';
import { classifyDocument, semanticFindings } from '../../spec/rules/capabilities.ts';
import { isValidDeviceId, parentOf } from '../../spec/rules/device-id.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';

const replay = {
  seed: process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED),
  path: process.env.WFMCK_PATH,
  numRuns: 300,
};

test('validCapabilities: every document passes the schema and the semantic rules', () => {
  fc.assert(
    fc.property(validCapabilities({ unknownEnumValues: true }), (doc) => {
      const result = validate('DeviceCapabilities', doc);
      assert.ok(result.ok, result.ok ? '' : formatSchemaErrors(result.errors));
      assert.deepEqual(semanticFindings(doc), []);
    }),
    replay,
  );
});

test('validCapabilities: kind and quantity format are honoured', () => {
  fc.assert(
    fc.property(validCapabilities({ kind: 'hosting', quantityFormat: 'compact' }), (doc) => {
      assert.equal(classifyDocument(doc.properties), 'hosting');
      assert.doesNotMatch(doc.properties.memory!, / /);
      assert.deepEqual(semanticFindings(doc, { quantityFormats: 'compact' }), []);
    }),
    replay,
  );
  fc.assert(
    fc.property(validCapabilities({ kind: 'identity-only' }), (doc) => assert.equal(classifyDocument(doc.properties), 'identity-only')),
    replay,
  );
});

test('invalidCapabilities: every document is refused by the schema or a semantic rule', () => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(invalidCapabilities(), ({ doc, defect }) => {
      seen.add(defect.split(' ')[0]!);
      const result = validate('DeviceCapabilities', doc);
      if (result.ok) assert.notDeepEqual(semanticFindings(doc as DeviceCapabilities), [], `accepted despite: ${defect}`);
    }),
    { ...replay, numRuns: 1000 },
  );
  for (const family of ['missing', 'wrongType', 'bad', 'partial', 'custom', 'hosting'])
    assert.ok(seen.has(family), `defect family ${family} generated`);
});

test('deviceHierarchy: ids are valid, unique, and each sits under its parent', () => {
  fc.assert(
    fc.property(deviceHierarchy(), (tree) => {
      const ids = hierarchyIds(tree);
      assert.equal(new Set(ids).size, ids.length);
      const seen = new Set<string>();
      for (const id of ids) {
        assert.ok(isValidDeviceId(id), id);
        const parent = parentOf(id);
        if (parent !== undefined) assert.ok(seen.has(parent), `${parent} listed before ${id}`);
        seen.add(id);
      }
    }),
    replay,
  );
});

test('componentStates: unique names, and errors only on failed components with the component as source', () => {
  fc.assert(
    fc.property(componentStates(), (components) => {
      assert.ok(components.length >= 1);
      assert.equal(new Set(components.map((c) => c.name)).size, components.length);
      for (const c of components) if (c.error) assert.deepEqual([c.state, c.error.source], ['failed', c.name]);
    }),
    replay,
  );
});
