// Fleet thresholds as a load tool's users write them: the grammar, the units, which endpoint decides, and the
// cases where a bound cannot be said to hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeThreshold, parseThreshold, thresholdLines } from '../../simulators/fleet/thresholds.ts';
import type { LatencySummary } from '../../simulators/fleet/histogram.ts';
import { parseFleetInput } from '../../simulators/fleet/spec.ts';

const lat = (p95Ms: number, extra: Partial<LatencySummary> = {}): LatencySummary =>
  ({ count: 10, minMs: 1, meanMs: p95Ms / 2, p50Ms: p95Ms / 2, p95Ms, p99Ms: p95Ms * 1.5, maxMs: p95Ms * 2, ...extra }) as LatencySummary;
const figures = {
  latency: { onboarding: lat(40), 'desired-state': lat(250), 'capabilities.put': lat(90) },
  requests: { total: 2000, unexpected: 1, transportErrors: 2 },
};

test('the grammar: metric, operator, number and unit; seconds become ms, a percent a ratio', () => {
  assert.deepEqual(parseThreshold(' p95<200ms '), { source: 'p95<200ms', metric: 'p95', op: '<', value: 200 });
  assert.deepEqual(parseThreshold('capabilities.put:p99<=1.5s'), {
    source: 'capabilities.put:p99<=1.5s',
    metric: 'p99',
    endpoint: 'capabilities.put',
    op: '<=',
    value: 1500,
  });
  assert.deepEqual(parseThreshold('errors<0.1%'), { source: 'errors<0.1%', metric: 'errors', op: '<', value: 0.001, percent: true });
  assert.deepEqual(parseThreshold('errors<=3'), { source: 'errors<=3', metric: 'errors', op: '<=', value: 3 });
  for (const bad of ['p90<200ms', 'p95 200ms', 'p95<200%', 'errors<5ms', 'onboarding:errors<1%', ''])
    assert.throws(() => parseThreshold(bad), /threshold|errors|time/, bad);
});

test('a latency threshold without an endpoint holds for every endpoint: the worst one decides, and is named', () => {
  assert.deepEqual(judgeThreshold(parseThreshold('p95<200ms'), figures), {
    threshold: 'p95<200ms',
    observed: 250,
    endpoint: 'desired-state',
    ok: false,
  });
  assert.deepEqual(judgeThreshold(parseThreshold('p95<300ms'), figures), {
    threshold: 'p95<300ms',
    observed: 250,
    endpoint: 'desired-state',
    ok: true,
  });
  assert.equal(judgeThreshold(parseThreshold('onboarding:p95<50ms'), figures).ok, true);
  assert.equal(judgeThreshold(parseThreshold('p50>30ms'), figures).endpoint, 'onboarding', 'a lower bound: the smallest figure decides');
});

test('errors are unexpected answers plus transport errors, as a share of every request or a count', () => {
  assert.deepEqual(judgeThreshold(parseThreshold('errors<0.1%'), figures), { threshold: 'errors<0.1%', observed: 0.15, ok: false });
  assert.equal(judgeThreshold(parseThreshold('errors<1%'), figures).ok, true);
  assert.equal(judgeThreshold(parseThreshold('errors<=3'), figures).ok, true);
  assert.equal(judgeThreshold(parseThreshold('errors<3'), figures).ok, false);
});

test('a bound on an endpoint that was never measured does not hold', () => {
  const r = judgeThreshold(parseThreshold('status.post:p95<100ms'), figures);
  assert.deepEqual(r, { threshold: 'status.post:p95<100ms', observed: null, endpoint: 'status.post', ok: false });
  assert.match(thresholdLines([r])[0]!, /^FAIL threshold status\.post:p95<100ms: nothing measured/);
});

test('a threshold is checked when the fleet is set up: a typo is a usage error naming its flag or key', () => {
  assert.deepEqual(parseFleetInput({ thresholds: ['p95<200ms', 'errors<1%'] }, (k) => k).thresholds, ['p95<200ms', 'errors<1%']);
  assert.deepEqual(parseFleetInput({ thresholds: 'p95<200' }, (k) => k).thresholds, ['p95<200'], 'no unit: milliseconds, as k6 reads it');
  assert.throws(() => parseFleetInput({ thresholds: ['p9<200ms'] }, () => '--threshold'), /--threshold: "p9<200ms" is not a threshold/);
});
