import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEPLOYMENT_STATES, type DeploymentState } from '../../../spec/types.ts';
import { judgeOverallState, overallState, PRECEDENCE } from '../../../spec/rules/status-precedence.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(300);
const stateArb = fc.constantFrom(...DEPLOYMENT_STATES);
const statesArb = fc.array(stateArb, { minLength: 1, maxLength: 8 });

test('P7: the kit reads the list as failed > removing > installing > pending > installed > removed', () => {
  assert.deepEqual([...PRECEDENCE], ['failed', 'removing', 'installing', 'pending', 'installed', 'removed']);
  assert.deepEqual([...PRECEDENCE].sort(), [...DEPLOYMENT_STATES].sort());
});

test('§2.4: status.state reflects the most severe component state', () => {
  assert.equal(overallState(['installed', 'installing']), 'installing');
  assert.equal(overallState(['installed', 'failed', 'removing']), 'failed');
  assert.equal(overallState(['pending', 'installed']), 'pending');
  assert.equal(overallState(['removing', 'installing']), 'removing');
  assert.equal(overallState(['removed', 'removed']), 'removed');
  assert.equal(overallState(['removed', 'installed']), 'installed');
});

test('no components: pending, and any other report is ambiguous rather than wrong', () => {
  assert.equal(overallState([]), 'pending');
  assert.equal(judgeOverallState('pending', []).verdict, 'consistent');
  assert.equal(judgeOverallState('installed', []).verdict, 'ambiguous');
});

test('§2.4: a report that no reading of the list allows is inconsistent', () => {
  const j = judgeOverallState('installed', ['installed', 'installing']);
  assert.deepEqual([j.verdict, j.expected], ['inconsistent', 'installing']);
  assert.match(j.reason!, /§2\.4/);
  assert.equal(judgeOverallState('pending', ['failed', 'pending']).verdict, 'inconsistent');
});

test('P7: where "removed" ranks is open, so cases that depend on it are ambiguous', () => {
  const j = judgeOverallState('removed', ['removed', 'installed']);
  assert.deepEqual([j.verdict, j.expected], ['ambiguous', 'installed']);
  assert.match(j.reason!, /omits "removed"/);
  assert.equal(judgeOverallState('removed', ['removed', 'pending', 'installed']).verdict, 'ambiguous');
  assert.equal(judgeOverallState('installed', ['removed', 'installed']).verdict, 'consistent');
  assert.equal(
    judgeOverallState('removed', ['removed', 'failed']).verdict,
    'inconsistent',
    'failed outranks removed under every placement',
  );
});

test('the repeated "removing": the kit takes the first; option "either" makes the second a reading too', () => {
  assert.equal(judgeOverallState('installing', ['removing', 'installing']).verdict, 'inconsistent');
  const j = judgeOverallState('installing', ['removing', 'installing'], { repeatedRemoving: 'either' });
  assert.equal(j.verdict, 'ambiguous');
  assert.match(j.reason!, /second "removing"/);
  assert.equal(judgeOverallState('installed', ['removing', 'installed'], { repeatedRemoving: 'either' }).verdict, 'inconsistent');
});

const rank = (s: DeploymentState) => PRECEDENCE.indexOf(s);

test('property: overallState is the most severe state under PRECEDENCE', () => {
  fc.assert(
    fc.property(statesArb, (xs) => {
      const o = overallState(xs);
      assert.ok(xs.includes(o));
      assert.ok(xs.every((s) => rank(o) <= rank(s)));
    }),
    fcOpts,
  );
});

test('property: overallState ignores component order', () => {
  fc.assert(
    fc.property(
      statesArb.chain((xs) => fc.tuple(fc.constant(xs), fc.shuffledSubarray(xs, { minLength: xs.length }))),
      ([xs, shuffled]) => {
        assert.equal(overallState(shuffled), overallState(xs));
      },
    ),
    fcOpts,
  );
});

test('property: adding a failed component makes the result failed', () => {
  fc.assert(
    fc.property(fc.array(stateArb, { maxLength: 8 }), fc.nat(), (xs, at) => {
      const i = at % (xs.length + 1);
      assert.equal(overallState([...xs.slice(0, i), 'failed', ...xs.slice(i)]), 'failed');
    }),
    fcOpts,
  );
});

test("property: judging the kit's own answer is always consistent", () => {
  fc.assert(
    fc.property(fc.array(stateArb, { maxLength: 8 }), (xs) => {
      assert.deepEqual(judgeOverallState(overallState(xs), xs), { verdict: 'consistent', expected: overallState(xs) });
    }),
    fcOpts,
  );
});

test('property: without "removed" components nothing is ambiguous; a state absent from the components is inconsistent', () => {
  fc.assert(
    fc.property(statesArb, stateArb, (xs, reported) => {
      const v = judgeOverallState(reported, xs).verdict;
      if (!xs.includes('removed')) assert.notEqual(v, 'ambiguous');
      if (!xs.includes(reported)) assert.equal(v, 'inconsistent');
    }),
    fcOpts,
  );
});

test('property: every ambiguous case holds "removed" and a state the kit ranks above it, and reports one of them', () => {
  fc.assert(
    fc.property(statesArb, stateArb, (xs, reported) => {
      const j = judgeOverallState(reported, xs);
      if (j.verdict !== 'ambiguous') return;
      assert.ok(xs.includes('removed') && xs.some((s) => s !== 'removed' && s !== 'failed'));
      assert.ok(reported === 'removed' || rank(reported) > rank(j.expected));
    }),
    fcOpts,
  );
});

/** Independent oracle: the written list (first "removing") with "removed" at each rank below "failed". */
const WRITTEN = ['failed', 'removing', 'installing', 'pending', 'installed'] as const;
const placements = [1, 2, 3, 4, 5].map((i) => [...WRITTEN.slice(0, i), 'removed', ...WRITTEN.slice(i)] as DeploymentState[]);
const worstUnder = (order: DeploymentState[], xs: DeploymentState[]) => xs.reduce((w, s) => (order.indexOf(s) < order.indexOf(w) ? s : w));

test('property: ambiguous exactly when some placement of "removed" (but not the kit\'s) gives the report', () => {
  fc.assert(
    fc.property(statesArb, stateArb, (xs, reported) => {
      const someReading = placements.some((order) => worstUnder(order, xs) === reported);
      const kit = overallState(xs) === reported;
      const expected = kit ? 'consistent' : someReading ? 'ambiguous' : 'inconsistent';
      assert.equal(judgeOverallState(reported, xs).verdict, expected);
    }),
    fcOpts,
  );
});

test('property: option "either" only turns inconsistent verdicts into ambiguous ones', () => {
  fc.assert(
    fc.property(statesArb, stateArb, (xs, reported) => {
      const first = judgeOverallState(reported, xs).verdict;
      const either = judgeOverallState(reported, xs, { repeatedRemoving: 'either' }).verdict;
      if (first !== 'inconsistent') assert.equal(either, first);
      else assert.notEqual(either, 'consistent');
    }),
    fcOpts,
  );
});
