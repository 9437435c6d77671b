// Every fault of faults/catalog.yaml has exactly one implementation, of its own service, and every implementation is
// of a fault the catalog lists: the catalog (data) and the faulty variants (code) cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultCatalog } from '../../faults/catalog.ts';
import { SERVICE_FAULTS, SERVICE_FAULT_AREAS } from '../../reference/faults/index.ts';

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
    assert.deepEqual(forms.filter((k) => k !== 'rewrite'), forms.includes(f.service) ? [f.service] : [], `${id} is a ${f.service} fault`);
  }
});
