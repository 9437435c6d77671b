// What `wfmck faults` prints: the fault list, one table row per fault, the notes and the `N passed, N failed` line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFaultsReport, faultResult } from '../../faults/harness/faults-json.ts';
import { faultList, faultsTable, notes, summaryLine } from '../../faults/harness/table.ts';
import { fault, outcome } from './helpers.ts';

function sample() {
  return buildFaultsReport({
    startedAt: '2025-01-01T00:00:00.000Z',
    endedAt: '2025-01-01T00:01:00.000Z',
    seed: 1,
    repeat: 2,
    full: false,
    faults: [
      faultResult(fault('CAP-PUT-201'), [
        outcome(true, ['CAP-PUT-201'], { durationMs: 4200 }),
        outcome(true, ['CAP-PUT-201'], { durationMs: 4000 }),
      ]),
      faultResult(fault('DISC-ETAG', 'identity'), [
        outcome(false, [], { reason: 'DISC-ETAG: pass' }),
        outcome(false, [], { reason: 'DISC-ETAG: pass' }),
      ]),
      faultResult(fault('REG-TAGS-LAST', 'registry'), [outcome(true, ['REG-TAGS-LAST']), outcome(false, [])]),
    ],
    clean: { scope: 'all', failedRequirements: ['CAP-PUT-400'], erroredRequirements: [], durationMs: 9000 },
    unprovenRequirements: ['CAP-DELETE-404', 'CAP-PUT-400'],
  });
}

test('the table: id, service, ✓/✗ (flaky said), exact or not, failed requirements, blocked, time; columns aligned', () => {
  const lines = faultsTable(sample()).trimEnd().split('\n');
  assert.match(lines[0]!, /^fault +service +caught +exact +failed requirements +blocked +time$/);
  assert.match(lines[1]!, /^CAP-PUT-201 +wfm +✓ += +CAP-PUT-201 +0 +8\.2 s$/);
  assert.match(lines[2]!, /^DISC-ETAG +identity +✗ +≠ +- +0 +2\.0 s$/);
  assert.match(lines[3]!, /^REG-TAGS-LAST +registry +✗ flaky += +REG-TAGS-LAST +0 +2\.0 s$/);
  const column = (line: string) => [...line].indexOf('f', 10);
  assert.equal(column(lines[0]!), [...lines[1]!].indexOf('C', 10), 'the failed-requirements column starts at one place');
});

test('notes name each miss with its reason, each flaky fault with its runs, the false failures and the unproven list', () => {
  const text = notes(sample());
  assert.match(text, /^missed DISC-ETAG: DISC-ETAG: pass$/m);
  assert.match(text, /^flaky REG-TAGS-LAST: caught in 1 of 2 runs; failed per run: REG-TAGS-LAST \| -$/m);
  assert.match(text, /^clean services \(the whole suite\): false failures \(1\):\n  CAP-PUT-400$/m);
  assert.match(text, /^unproven requirements \(checked by the suites, broken by no fault\) \(2\):\n  CAP-DELETE-404 CAP-PUT-400$/m);
});

test('a long list of failed requirements is cut in the table (faults.json keeps it); a long id list wraps', () => {
  const many = Array.from({ length: 40 }, (_, i) => `REQ-${String(i).padStart(2, '0')}`);
  const report = { ...sample(), unprovenRequirements: many };
  report.faults = [faultResult(fault('REQ-00'), [outcome(true, many.slice(0, 6))])];
  assert.match(faultsTable(report), /REQ-00,REQ-01,REQ-02,REQ-03 \+2 more/);
  const wrapped = notes(report)
    .split('\n')
    .filter((l) => l.startsWith('  REQ-'));
  assert.ok(wrapped.length > 1 && wrapped.every((l) => l.length <= 100), 'wrapped at 100 columns');
  assert.equal(wrapped.join(' ').trim().split(/\s+/).length, 40, 'every id is printed once');
});

test('the summary line: a fault caught every time passes, a missed or flaky one fails', () => {
  assert.equal(summaryLine(sample()), 'faults: 1 passed, 2 failed\n');
});

test('--list: every fault with its service, breaks and description, and a count', () => {
  const text = faultList([fault('CAP-PUT-201'), fault('CAP-PUT-200:x', 'wfm', ['CAP-PUT-200', 'CAP-DELETE-204'])]);
  assert.match(text, /^fault +service +breaks +description$/m);
  assert.match(text, /^CAP-PUT-200:x +wfm +CAP-PUT-200,CAP-DELETE-204 +breaks CAP-PUT-200, CAP-DELETE-204$/m);
  assert.match(text, /^2 faults$/m);
});
