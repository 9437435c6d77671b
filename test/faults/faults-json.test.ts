// faults.json from runs: caught only when caught every time, flaky when repeats disagree, and the harness's exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildFaultsReport,
  cleanResult,
  exitCodeOf,
  faultResult,
  type CleanResult,
  type FaultResult,
} from '../../faults/harness/faults-json.ts';
import { judgeRun } from '../../faults/harness/judge.ts';
import { unprovenRequirements } from '../../reports/fault-proof.ts';
import { notes, summaryLine } from '../../faults/harness/table.ts';
import { fault, outcome, req } from './helpers.ts';

const CLEAN: CleanResult = { scope: 'all', failedRequirements: [], erroredRequirements: [], durationMs: 5000 };

function report(faults: FaultResult[], clean: CleanResult = CLEAN) {
  return buildFaultsReport({
    startedAt: '2025-01-01T00:00:00.000Z',
    endedAt: '2025-01-01T00:01:00.000Z',
    seed: 1,
    repeat: 1,
    full: false,
    faults,
    clean,
    unprovenRequirements: ['CAP-PUT-400'],
  });
}

test('faults.json has the shape the issue names, with the clean control and the unproven list beside it', () => {
  const r = report([faultResult(fault('CAP-PUT-201'), [outcome(true, ['CAP-PUT-201'])])]);
  assert.deepEqual(Object.keys(r), [
    'startedAt',
    'endedAt',
    'seed',
    'repeat',
    'full',
    'faults',
    'clean',
    'unprovenRequirements',
    'problems',
    'summary',
  ]);
  assert.deepEqual(r.faults[0], {
    id: 'CAP-PUT-201',
    service: 'wfm',
    requirements: ['CAP-PUT-201'],
    caught: true,
    failedRequirements: ['CAP-PUT-201'],
    blockedRequirements: [],
    exact: true,
    durationMs: 1000,
    seed: 1,
  });
  assert.deepEqual(r.summary, {
    total: 1,
    caught: 1,
    missed: 0,
    falseFailuresOnClean: 0,
    flaky: 0,
    exactness: { wfm: { exact: 1, total: 1 } },
  });
  assert.equal(exitCodeOf(r), 0);
});

test('a fault whose check passes (a fake breaks id that nothing fails) is missed, and the harness exits 1', () => {
  const fake = fault('CAP-PUT-201:fake', 'wfm', ['CAP-PUT-201', 'CAP-PUT-400']);
  const run = judgeRun(
    fake.breaks,
    { requirements: [req('CAP-PUT-201', 'fail'), req('CAP-PUT-400', 'pass')] },
    { durationMs: 900, seed: 3 },
  );
  const r = report([faultResult(fault('CAP-PUT-201'), [outcome(true, ['CAP-PUT-201'])]), faultResult(fake, [run])]);
  assert.equal(r.faults[1]!.caught, false);
  assert.equal(r.faults[1]!.reason, 'CAP-PUT-400: pass');
  assert.deepEqual(r.summary, {
    total: 2,
    caught: 1,
    missed: 1,
    falseFailuresOnClean: 0,
    flaky: 0,
    exactness: { wfm: { exact: 1, total: 2 } },
  });
  assert.equal(exitCodeOf(r), 1);
});

test('repeats: caught only when caught every time; any disagreement is flaky, and flaky fails the harness', () => {
  const steady = faultResult(fault('A-1'), [outcome(true, ['A-1']), outcome(true, ['A-1'], { seed: 2 })]);
  assert.equal(steady.flaky, undefined);
  assert.equal(steady.durationMs, 2000, 'the wall time of all its runs');
  assert.deepEqual(
    steady.repeats?.map((r) => r.seed),
    [1, 2],
  );
  const sometimes = faultResult(fault('A-1'), [outcome(true, ['A-1']), outcome(false, []), outcome(true, ['A-1'])]);
  assert.deepEqual([sometimes.caught, sometimes.flaky, sometimes.reason], [false, true, 'X: pass']);
  const collateral = faultResult(fault('A-1'), [outcome(true, ['A-1']), outcome(true, ['A-1', 'B-1'])]);
  assert.deepEqual(
    [collateral.caught, collateral.flaky, collateral.failedRequirements, collateral.exact],
    [true, true, ['A-1', 'B-1'], false],
  );
  const blocked = faultResult(fault('A-1'), [outcome(true, ['A-1'], { blockedRequirements: ['B-1', 'C-1'] })]);
  assert.deepEqual(
    [blocked.exact, blocked.blockedRequirements],
    [true, ['B-1', 'C-1']],
    'what the fault only disturbs is blocked, and it stays exact',
  );
  const r = report([steady, collateral]);
  assert.deepEqual([r.summary.caught, r.summary.flaky, exitCodeOf(r)], [2, 1, 1]);
  assert.throws(() => faultResult(fault('A-1'), []), /no run/);
});

test('the clean control: a false failure, a kit error or a missing report fails the harness', () => {
  const good = [faultResult(fault('A-1'), [outcome(true, ['A-1'])])];
  const runs = (...reports: Parameters<typeof cleanResult>[1]) => cleanResult('all', reports);
  const falseFailure = runs(
    { report: { requirements: [req('A-1', 'pass'), req('B-1', 'fail')] }, durationMs: 10 },
    { report: { requirements: [req('C-1', 'warn')] }, durationMs: 20 },
  );
  assert.deepEqual([falseFailure.failedRequirements, falseFailure.durationMs], [['B-1', 'C-1'], 30]);
  assert.deepEqual([report(good, falseFailure).summary.falseFailuresOnClean, exitCodeOf(report(good, falseFailure))], [2, 1]);
  const kitError = runs({ report: { requirements: [req('A-1', 'error')] }, durationMs: 10 });
  assert.deepEqual([kitError.erroredRequirements, exitCodeOf(report(good, kitError))], [['A-1'], 1]);
  const missing = runs({ durationMs: 10, error: 'wfmck run exited 2 without a conformance.json' });
  assert.deepEqual([missing.error, exitCodeOf(report(good, missing))], ['wfmck run exited 2 without a conformance.json', 1]);
});

test("unproven requirements: checked by a suite, named in no fault's breaks", () => {
  const faults = [fault('CAP-PUT-201'), fault('CAP-PUT-200:x', 'wfm', ['CAP-PUT-200', 'CAP-DELETE-204'])];
  assert.deepEqual(unprovenRequirements(['CAP-PUT-400', 'CAP-PUT-201', 'CAP-DELETE-404', 'CAP-DELETE-204', 'CAP-PUT-400'], faults), [
    'CAP-DELETE-404',
    'CAP-PUT-400',
  ]);
});

test('a fault caught with a requirement failed beyond its breaks is a wrong verdict: it fails the harness, except with --full', () => {
  const inexact = faultResult(fault('A-1'), [outcome(true, ['A-1', 'B-1'])]);
  assert.deepEqual([inexact.caught, inexact.flaky, inexact.exact], [true, undefined, false]);
  const r = report([inexact]);
  assert.equal(exitCodeOf(r), 1);
  assert.equal(summaryLine(r), 'faults: 0 passed, 1 failed\n');
  assert.match(notes(r), /inexact A-1: failed B-1 beyond what it breaks/);
  const full = { ...r, full: true };
  assert.equal(exitCodeOf(full), 0, 'with --full every test runs: collateral failures are shown, not judged');
  assert.equal(summaryLine(full), 'faults: 1 passed, 0 failed\n');
});
