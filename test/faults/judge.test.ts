// Caught or missed: every requirement a fault breaks must fail; a kit error, a skip or a pass catches nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFailed, erroredRequirements, failedRequirements, judgeRun, sameResult, type RunReport } from '../../faults/harness/judge.ts';
import { req } from './helpers.ts';

const run = { durationMs: 1200, seed: 42 };

test('a check failed: status fail, or warn because the level or the errata weigh a finding down; never error, skip or a bare warn', () => {
  assert.equal(checkFailed(req('A-1', 'fail')), true);
  assert.equal(checkFailed(req('A-1', 'warn', ['pass', 'fail'])), true, 'a SHOULD whose test failed');
  assert.equal(checkFailed(req('A-1', 'warn', ['pass'])), false);
  assert.equal(checkFailed(req('A-1', 'warn', ['pass', 'warn'])), true, 'a test that noted an errata departure (strict fails it)');
  assert.equal(checkFailed(req('A-1', 'error')), false);
  assert.equal(checkFailed(req('A-1', 'skip')), false);
  assert.equal(checkFailed(req('A-1', 'pass')), false);
});

test('caught iff every requirement in breaks failed; failedRequirements lists every failure, sorted', () => {
  const report: RunReport = { requirements: [req('CAP-PUT-201', 'fail'), req('CAP-PUT-200', 'fail'), req('CAP-PUT-400', 'pass')] };
  assert.deepEqual(judgeRun(['CAP-PUT-201'], report, run), {
    caught: true,
    failedRequirements: ['CAP-PUT-200', 'CAP-PUT-201'],
    blockedRequirements: [],
    durationMs: 1200,
    seed: 42,
  });
  const missed = judgeRun(['CAP-PUT-201', 'CAP-PUT-400'], report, run);
  assert.equal(missed.caught, false);
  assert.equal(missed.reason, 'CAP-PUT-400: pass');
});

test('a fault that only makes a test err or skip, or whose requirement no test checks, is missed, with the status as reason', () => {
  const report: RunReport = {
    requirements: [req('A-1', 'error'), req('A-2', 'skip'), req('A-3', 'not-covered')],
    problems: ['run error: fixture crashed'],
  };
  const r = judgeRun(['A-1', 'A-2', 'A-3', 'A-4'], report, run);
  assert.equal(r.caught, false);
  assert.equal(
    r.reason,
    'A-1: error, A-2: skip, A-3: not-covered (no test ran), A-4: not in the report; kit problems: run error: fixture crashed',
  );
});

test('a run without a report catches nothing and says why', () => {
  assert.deepEqual(judgeRun(['A-1'], undefined, { ...run, error: 'wfmck run exited 2' }), {
    caught: false,
    failedRequirements: [],
    blockedRequirements: [],
    durationMs: 1200,
    seed: 42,
    reason: 'wfmck run exited 2',
  });
});

test('errored requirements and result equality', () => {
  const report: RunReport = { requirements: [req('B-1', 'error'), req('A-1', 'error'), req('C-1', 'fail')] };
  assert.deepEqual([erroredRequirements(report), failedRequirements(report)], [['A-1', 'B-1'], ['C-1']]);
  assert.equal(sameResult({ caught: true, failedRequirements: ['A-1'] }, { caught: true, failedRequirements: ['A-1'] }), true);
  assert.equal(sameResult({ caught: true, failedRequirements: ['A-1'] }, { caught: true, failedRequirements: ['A-1', 'B-1'] }), false);
  assert.equal(sameResult({ caught: true, failedRequirements: [] }, { caught: false, failedRequirements: [] }), false);
});
