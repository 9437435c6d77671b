// The harness plan: a --grep that selects exactly the tests of the given requirement ids, the quick subset, run args.
// Replay a property failure with WFMCK_SEED=<seed> (fast-check prints the seed and path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ID_PATTERN } from '../../spec/requirements.ts';
import { quickSubset, repeatSeed, requirementsGrep, runArgs, runDirName } from '../../faults/harness/plan.ts';
import { fault } from './helpers.ts';

const seed = process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED);

/** How Playwright sees a title: file, describe blocks and title joined by spaces. */
const path = (title: string) => `capabilities.spec.ts §4.1 PUT /api/v1/capabilities/{deviceId} ${title}`;

test('the grep is anchored: CAP-PUT-20 never selects CAP-PUT-201, nor CAP-PUT-201 CAP-PUT-2010 or CAP-PUT-201-X', () => {
  const one = new RegExp(requirementsGrep(['CAP-PUT-201']));
  assert.ok(one.test(path('CAP-PUT-201 PUT for a deviceId with no document creates it: 201')));
  assert.ok(one.test('CAP-PUT-201 at the very start'));
  assert.ok(!one.test(path('CAP-PUT-2010 something else')));
  assert.ok(!one.test(path('CAP-PUT-201-X a longer id')));
  assert.ok(!one.test(path('XCAP-PUT-201 glued to a word')));
  const short = new RegExp(requirementsGrep(['CAP-PUT-20']));
  assert.ok(!short.test(path('CAP-PUT-201 PUT creates it')));
  assert.ok(short.test(path('CAP-PUT-20 PUT')));
});

test('a test naming several ids is selected by any of them; the grep holds each id once', () => {
  const grep = requirementsGrep(['CAP-PUT-200', 'CAP-PUT-201', 'CAP-PUT-200']);
  assert.equal(grep, '(^| )(CAP-PUT-200|CAP-PUT-201)(?![-A-Z0-9])');
  assert.ok(new RegExp(grep).test(path('CAP-DELETE-204 CAP-PUT-201 DELETE after a create')));
  assert.throws(() => requirementsGrep([]), /at least one/);
});

test('property: a title starting with an id is selected iff that id is in the set', () => {
  const id = fc.stringMatching(/^[A-Z][A-Z0-9]{0,3}(-[A-Z0-9]{1,4}){1,3}$/).filter((s) => ID_PATTERN.test(s));
  fc.assert(
    fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 4 }), id, fc.constantFrom('', '1', '0', '-X', '-1'), (ids, other, suffix) => {
      const re = new RegExp(requirementsGrep(ids));
      for (const chosen of ids) assert.ok(re.test(path(`${chosen} checks it`)), `${chosen} is selected`);
      const candidate = `${other}${suffix}`;
      assert.equal(re.test(path(`${candidate} checks it`)), ids.includes(candidate), `${candidate} against ${ids.join(',')}`);
    }),
    { seed, numRuns: 300 },
  );
});

test('quick subset: the first fault of each service, in the order wfm, identity, registry', () => {
  const faults = [
    fault('REG-A', 'registry'),
    fault('CAP-A', 'wfm'),
    fault('CAP-B', 'wfm'),
    fault('ID-A', 'identity'),
    fault('REG-B', 'registry'),
  ];
  assert.deepEqual(
    quickSubset(faults).map((f) => f.id),
    ['CAP-A', 'ID-A', 'REG-A'],
  );
  assert.deepEqual(
    quickSubset([fault('CAP-A', 'wfm')]).map((f) => f.id),
    ['CAP-A'],
    'a service without faults is left out',
  );
  const miaf = { ...fault('MIAF-A', 'wfm'), edition: 'miaf' as const };
  assert.deepEqual(
    quickSubset([miaf, ...faults]).map((f) => f.id),
    ['CAP-A', 'ID-A', 'REG-A', 'MIAF-A'],
    'and the first fault of edition miaf, after them',
  );
});

test('run folders, repeat seeds and the arguments of wfmck run', () => {
  assert.equal(runDirName('CAP-PUT-201:zero-length'), 'CAP-PUT-201_zero-length');
  assert.deepEqual([repeatSeed(7, 1), repeatSeed(7, 3), repeatSeed(2 ** 31 - 1, 2)], [7, 9, -(2 ** 31)]);
  assert.deepEqual(runArgs({ fault: 'CAP-PUT-201', requirements: ['CAP-PUT-201'], out: '/o/CAP-PUT-201', seed: 3 }), [
    'run',
    '--out',
    '/o/CAP-PUT-201',
    '--seed',
    '3',
    '--fault',
    'CAP-PUT-201',
    '--grep',
    '(^| )(CAP-PUT-201)(?![-A-Z0-9])',
    '--workers',
    '1',
  ]);
  assert.deepEqual(
    runArgs({ out: '/o/clean', seed: 3 }),
    ['run', '--out', '/o/clean', '--seed', '3'],
    'the clean control: the whole suite, no fault',
  );
  assert.deepEqual(
    runArgs({ out: '/o/clean-miaf', seed: 3, edition: 'miaf' }),
    ['run', '--out', '/o/clean-miaf', '--seed', '3', '--edition', 'miaf'],
    'a miaf run names its edition',
  );
  assert.deepEqual(
    runArgs({ out: '/o/clean', seed: 3, edition: 'seed' }),
    ['run', '--out', '/o/clean', '--seed', '3'],
    'seed is the default',
  );
});
