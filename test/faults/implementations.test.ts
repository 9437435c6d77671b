// Every fault of faults/catalog.yaml has exactly one implementation, of its own service, and every implementation is
// of a fault the catalog lists: the catalog (data) and the faulty variants (code) cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultCatalog } from '../../faults/catalog.ts';
import { SERVICE_FAULTS, SERVICE_FAULT_AREAS } from '../../reference/faults/index.ts';
import { cleanClientDecisions, type ClientDecisions } from '../../simulators/device/decisions/index.ts';
import { CLIENT_FAULTS, CLIENT_FAULT_AREAS, clientVariant } from '../../simulators/faults/index.ts';

const serviceFaults = faultCatalog().filter((f) => f.service !== 'client');

test('every service fault of the catalog has one implementation, in one area', () => {
  const ids = Object.values(SERVICE_FAULT_AREAS).flatMap((table) => Object.keys(table));
  assert.equal(ids.length, new Set(ids).size, 'an id implemented in two areas');
  for (const f of serviceFaults) assert.ok(SERVICE_FAULTS[f.id], `${f.id} has no implementation in reference/faults/`);
});

test('every service implementation is of a catalog fault, and changes its own service only', () => {
  const byId = new Map(serviceFaults.map((f) => [f.id, f]));
  for (const [id, implementation] of Object.entries(SERVICE_FAULTS)) {
    const f = byId.get(id);
    assert.ok(f, `${id} is implemented but faults/catalog.yaml has no such service fault`);
    const forms = Object.keys(implementation).filter((k) => implementation[k as keyof typeof implementation] !== undefined);
    assert.ok(forms.length > 0, `${id} changes nothing`);
    assert.deepEqual(
      forms.filter((k) => k !== 'rewrite'),
      forms.includes(f.service) ? [f.service] : [],
      `${id} is a ${f.service} fault`,
    );
  }
});

const clientFaults = faultCatalog().filter((f) => f.service === 'client');

test('every client fault of the catalog has one implementation, in one area, and every implementation a catalog entry', () => {
  const ids = Object.values(CLIENT_FAULT_AREAS).flatMap((table) => Object.keys(table));
  assert.equal(ids.length, new Set(ids).size, 'an id implemented in two areas');
  for (const f of clientFaults) assert.ok(CLIENT_FAULTS[f.id], `${f.id} has no implementation in simulators/faults/`);
  const known = new Set(clientFaults.map((f) => f.id));
  for (const id of Object.keys(CLIENT_FAULTS))
    assert.ok(known.has(id), `${id} is implemented but faults/catalog.yaml has no such client fault`);
});

test('every client fault changes at least one decision of the clean client', () => {
  for (const f of clientFaults) {
    const changed = Object.entries(clientVariant([f.id])).filter(([k, v]) => v !== cleanClientDecisions[k as keyof ClientDecisions]);
    assert.ok(changed.length > 0, `${f.id} changes nothing`);
  }
});
