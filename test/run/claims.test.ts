// Claims: every requirement a persona judges belongs to one claim area; a run that claims some areas judges those only,
// the rest `skip: not-claimed`, and can be conformant for exactly what it claims.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAIM_AREAS, areaOf, areasFor, unclaimedReason } from '../../run/contract/claims.ts';
import { loadRequirements, type Requirement } from '../../spec/requirements.ts';
import { buildMatrix, summarize, type TestRecord } from '../../reports/matrix.ts';

test('every requirement a persona can judge belongs to exactly one area of its observer; untestable ones to none', () => {
  for (const r of loadRequirements()) {
    const areas = CLAIM_AREAS.filter(
      (a) => a.observer === r.observer && a.ids.some((e) => (e.endsWith('-') ? r.id.startsWith(e) : r.id === e)),
    );
    if (r.observer === 'untestable') assert.equal(areas.length, 0, r.id);
    else assert.ok(areas.length >= 1, `${r.id} (${r.observer}) has no claim area`);
    assert.equal(areaOf(r), areas[0], `${r.id}: the first matching area is its own`);
  }
  const names = (o: Requirement['observer']) => areasFor([o]).map((a) => a.name);
  for (const o of ['wfm', 'identity', 'registry', 'client'] as const)
    assert.equal(new Set(names(o)).size, names(o).length, `${o}: area names are unique`);
  const service = areasFor(['wfm', 'identity', 'registry']).map((a) => a.name);
  assert.equal(new Set(service).size, service.length, 'persona wfm: no area name is shared by its three observers');
});

test('unclaimedReason: nothing named claims all; a requirement outside the claimed areas says which area and what was claimed', () => {
  const push = { id: 'REG-PUSH-OCI', observer: 'registry' as const };
  assert.equal(unclaimedReason(undefined, push), undefined);
  assert.equal(unclaimedReason(['push'], push), undefined);
  assert.match(unclaimedReason(['pull', 'packages'], push)!, /^not claimed: area push .*; the component claims pull, packages$/);
  assert.equal(unclaimedReason(['pull'], { id: 'REG-SIGNATURE-LOCATION', observer: 'untestable' }), undefined);
});

test('a registry failing tag pagination is conformant for what it claims when it does not claim content discovery', () => {
  const catalog = loadRequirements().filter((r) => r.observer === 'registry');
  const records: TestRecord[] = catalog.map((r) => ({
    requirementIds: [r.id],
    title: `${r.id} t`,
    file: 'suites/registry.spec.ts',
    line: 1,
    durationMs: 1,
    status: r.id === 'REG-TAGS-N' || r.id === 'REG-TAGS-LAST' ? 'fail' : 'pass',
  }));
  const all = buildMatrix(catalog, records, 'default', false, 'seed', 'registry');
  assert.equal(summarize(all, 'default').verdict, 'not-conformant');
  const claims = ['pull', 'push', 'referrers', 'token-auth', 'packages', 'compose'];
  const claimed = buildMatrix(catalog, records, 'default', false, 'seed', 'registry', (r) => unclaimedReason(claims, r));
  const s = summarize(claimed, 'default');
  assert.deepEqual([s.verdict, s.fail, s.skipCauses['not-claimed']], ['conformant', 0, 5]);
  assert.equal(claimed.find((q) => q.id === 'REG-TAGS-N')!.skipCause, 'not-claimed');
});
