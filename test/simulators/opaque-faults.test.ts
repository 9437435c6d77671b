// The client faults of an opaque gateway's aggregate (simulators/faults/documents.ts) break exactly the rule they are
// named after, whatever the seed: the device persona's proof of each aggregation check relies on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeDevice } from '../../simulators/data/describe.ts';
import { clientVariant } from '../../simulators/faults/index.ts';
import { faultCatalog } from '../../faults/catalog.ts';
import { checkOpaqueAggregation } from '../../spec/rules/opaque-aggregation.ts';

const RULE_OF: Record<string, string> = {
  'GW-OPAQUE-AGG-CPUS': 'opaque-cpus-one-per-child-cpu',
  'GW-OPAQUE-AGG-MEMORY': 'opaque-memory-summed',
  'GW-OPAQUE-AGG-STORAGE': 'opaque-storage-summed',
  'GW-OPAQUE-AGG-INTERFACES': 'opaque-interfaces-added',
  'GW-OPAQUE-AGG-RUNTIMES': 'opaque-runtimes-union',
  'GW-OPAQUE-AGG-DEPLOYTYPES': 'opaque-deployment-types-gateway',
};

test('every opaque aggregation fault is named after one aggregation rule', () => {
  assert.deepEqual(
    faultCatalog()
      .filter((f) => f.id.startsWith('GW-OPAQUE-AGG-'))
      .map((f) => f.id)
      .sort(),
    Object.keys(RULE_OF).sort(),
  );
});

test("property: the clean aggregate passes, and each fault's document breaks exactly its own rule, for any seed", () => {
  const faulty = Object.keys(RULE_OF).map((id) => [id, clientVariant([id])] as const);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      const gw = describeDevice(seed, 1, 'opaque-gateway');
      const children = gw.children!.map((c) => c.capabilities.properties);
      const types = gw.capabilities.properties.supportedDeploymentTypes ?? [];
      assert.deepEqual(
        checkOpaqueAggregation(
          clientVariant([]).capabilitiesDocument(gw.capabilities, { index: 0, kind: 'opaque-gateway', children }),
          children,
          types,
        ),
        [],
      );
      for (const [id, decisions] of faulty) {
        const sent = decisions.capabilitiesDocument(gw.capabilities, { index: 0, kind: 'opaque-gateway', children });
        assert.deepEqual(
          checkOpaqueAggregation(sent, children, types).map((x) => x.rule),
          [RULE_OF[id]],
          `${id} on seed ${seed}`,
        );
      }
    }),
    { numRuns: 200 },
  );
});
