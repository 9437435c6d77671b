// faults/catalog.yaml as data: it loads, every id is unique and every broken requirement exists, and a bad entry is
// refused with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FAULT_SERVICES,
  UnknownFaultError,
  faultCatalog,
  faultIdsOf,
  parseFaultCatalog,
  requirementOf,
  resolveFaultIds,
} from '../../faults/catalog.ts';
import { loadRequirements } from '../../spec/requirements.ts';

const requirements = loadRequirements();

test('the catalog loads: unique ids, each breaking its own requirement first, every service present', () => {
  const faults = faultCatalog();
  const ids = faults.map((f) => f.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const f of faults) assert.equal(f.breaks[0], requirementOf(f.id), `${f.id} breaks its own requirement first`);
  assert.deepEqual([...new Set(faults.map((f) => f.service))].sort(), [...FAULT_SERVICES].sort());
  const known = new Set(requirements.map((r) => r.id));
  for (const f of faults) for (const b of f.breaks) assert.ok(known.has(b), `${f.id} breaks ${b}`);
});

test('ids resolve in the order given; an unknown id is a usage error', () => {
  assert.deepEqual(
    resolveFaultIds(['CAP-PUT-200', 'CAP-PUT-201']).map((f) => f.id),
    ['CAP-PUT-200', 'CAP-PUT-201'],
  );
  assert.throws(
    () => resolveFaultIds(['NO-SUCH-FAULT']),
    (e: unknown) => e instanceof UnknownFaultError && /unknown fault "NO-SUCH-FAULT"/.test(e.message),
  );
  assert.deepEqual(faultIdsOf('identity', ['CAP-PUT-201', 'DISC-304']), ['DISC-304']);
});

const entry = (over: Record<string, unknown>): string => {
  const e = { id: 'CAP-PUT-201', service: 'wfm', breaks: ['CAP-PUT-201'], description: 'answers 200', ...over };
  return `- ${JSON.stringify(e)}\n`;
};

test('a bad entry is refused, naming what is wrong', () => {
  const refused = (over: Record<string, unknown>, why: RegExp) => assert.throws(() => parseFaultCatalog(entry(over), requirements), why);
  refused({ breaks: ['NO-SUCH-REQ'] }, /breaks NO-SUCH-REQ, which spec\/requirements.yaml does not have/);
  refused({ breaks: ['CAP-LIFE-CREATED', 'CAP-PUT-201'] }, /must name CAP-PUT-201, the requirement of its id, first/);
  refused({ service: 'identity' }, /observed by wfm, not by identity/);
  refused({ edition: 'miaf', id: 'CERT-GET-200', breaks: ['CERT-GET-200'] }, /does not bind edition miaf/);
  refused({ kind: 'plain' }, /kind is only for client faults/);
  refused({ rewrite: true }, /unknown key rewrite/);
  refused({ id: 'CAP-PUT-201:Bad' }, /id must be a requirement id/);
  refused({ description: 'two\nlines' }, /description must be a non-empty string on one line/);
  assert.throws(() => parseFaultCatalog(entry({}) + entry({}), requirements), /duplicate id/);
});
