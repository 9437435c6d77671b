import { fcOptions } from '../../support/fc.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  INITIAL_ADOPTION,
  applyFailed,
  beganApplying,
  checkVersionSequence,
  fetched,
  judgeReportedVersion,
  lostLocalState,
  reportedVersion,
  resynchronized,
  type AdoptionState,
} from '../../../spec/rules/manifest-version.ts';

const fcOpts = fcOptions(300);
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);

test('§2.4.1 rule 1: nothing is adopted before applying begins, so no report may be sent', () => {
  const s = fetched(INITIAL_ADOPTION, 3, true);
  assert.equal(reportedVersion(s), undefined);
  assert.deepEqual(rules(judgeReportedVersion(3, s)), ['report-before-adoption']);
});

test('§2.4.1 rules 3-4: fetching a newer manifest does not advance the version; applying it does', () => {
  let s = beganApplying(fetched(INITIAL_ADOPTION, 3, true), 3);
  s = fetched(s, 5, true);
  assert.equal(reportedVersion(s), 3);
  assert.deepEqual(judgeReportedVersion(3, s), []);
  assert.deepEqual(rules(judgeReportedVersion(5, s)), ['adopted-version-not-advanced-by-fetch']);
  s = beganApplying(s, 5);
  assert.equal(reportedVersion(s), 5);
  assert.deepEqual(rules(judgeReportedVersion(3, s)), ['adopted-version-held']);
});

test('§2.4.1 rule 5: a failed first install reports the version it adopted', () => {
  const s = applyFailed(beganApplying(fetched(INITIAL_ADOPTION, 7, true), 7));
  assert.equal(reportedVersion(s), 7);
  assert.deepEqual(judgeReportedVersion(7, s), []);
  assert.deepEqual(rules(judgeReportedVersion(6, s)), ['adopted-version-first-install']);
});

test('§2.4.1 rule 6: after losing local state the client reports the version it resynchronized against', () => {
  let s = beganApplying(INITIAL_ADOPTION, 4);
  s = lostLocalState(s);
  assert.equal(reportedVersion(s), undefined);
  s = resynchronized(s, 9);
  assert.equal(reportedVersion(s), 9);
  assert.deepEqual(rules(judgeReportedVersion(4, s)), ['adopted-version-resync']);
});

test('§2.4.1 rule 2: the attribute is present in every report and is a number', () => {
  const s = beganApplying(INITIAL_ADOPTION, 1);
  assert.deepEqual(rules(judgeReportedVersion(undefined, s)), ['adopted-version-present']);
  assert.deepEqual(rules(judgeReportedVersion('1', s)), ['adopted-version-number']);
});

test('§2.4.1 rule 7: versions strictly increase and never repeat', () => {
  assert.deepEqual(checkVersionSequence([1, 2, 5, 9]), []);
  assert.deepEqual(rules(checkVersionSequence([1, 2, 2])), ['manifest-version-repeats']);
  assert.deepEqual(rules(checkVersionSequence([1, 3, 2])), ['manifest-version-decreases']);
  assert.deepEqual(rules(checkVersionSequence([3, 1, 3])), ['manifest-version-decreases', 'manifest-version-repeats']);
  assert.deepEqual(rules(checkVersionSequence([0, 1.5])), ['manifest-version-range', 'manifest-version-range']);
});

test('§2.4.1 rule 7: any strictly increasing sequence is clean; swapping two distinct versions is not', () => {
  const increasing = fc
    .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 20 })
    .map((a) => a.sort((x, y) => x - y));
  fc.assert(
    fc.property(increasing, fc.nat(), (versions, k) => {
      assert.deepEqual(checkVersionSequence(versions), []);
      const i = k % (versions.length - 1);
      const swapped = [...versions];
      [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
      assert.deepEqual(rules(checkVersionSequence(swapped)), ['manifest-version-decreases']);
    }),
    fcOpts,
  );
});

/** The oracle: the last revision begun (or resynced against), and the newest fetched one not yet begun. */
interface Model {
  wfm: number;
  held?: number;
  pending?: number;
}
interface Real {
  state: AdoptionState;
}
type Cmd = fc.Command<Model, Real>;

function verify(m: Model, r: Real): void {
  assert.equal(reportedVersion(r.state), m.held);
  if (m.held === undefined) return;
  assert.deepEqual(judgeReportedVersion(m.held, r.state), []);
  if (m.pending !== undefined && m.pending !== m.held) assert.notDeepEqual(judgeReportedVersion(m.pending, r.state), []);
}

class Fetch implements Cmd {
  constructor(
    readonly gap: number,
    readonly contains: boolean,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    m.wfm += this.gap;
    m.pending = this.contains ? m.wfm : undefined;
    r.state = fetched(r.state, m.wfm, this.contains);
    verify(m, r);
  }
  toString = () => `fetch(+${this.gap}, ${this.contains})`;
}
class BeginApplying implements Cmd {
  check = (m: Readonly<Model>) => m.pending !== undefined;
  run(m: Model, r: Real): void {
    r.state = beganApplying(r.state, m.pending!);
    m.held = m.pending;
    m.pending = undefined;
    verify(m, r);
  }
  toString = () => 'beganApplying';
}
class ApplyFailed implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    r.state = applyFailed(r.state);
    verify(m, r);
  }
  toString = () => 'applyFailed';
}
class LoseState implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    r.state = lostLocalState(r.state);
    m.held = undefined;
    m.pending = undefined;
    verify(m, r);
  }
  toString = () => 'lostLocalState';
}
class Resync implements Cmd {
  check = (m: Readonly<Model>) => m.wfm > 0;
  run(m: Model, r: Real): void {
    r.state = resynchronized(r.state, m.wfm);
    m.held = m.wfm;
    m.pending = undefined;
    verify(m, r);
  }
  toString = () => 'resynchronized';
}

test('§2.4.1 model: the reported version is always the last revision begun or resynced against, never one merely fetched', () => {
  const commands = [
    fc.tuple(fc.integer({ min: 1, max: 3 }), fc.boolean()).map(([gap, contains]) => new Fetch(gap, contains)),
    fc.constant(new BeginApplying()),
    fc.constant(new ApplyFailed()),
    fc.constant(new LoseState()),
    fc.constant(new Resync()),
  ];
  fc.assert(
    fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
      fc.modelRun(() => ({ model: { wfm: 0 }, real: { state: INITIAL_ADOPTION } }), cmds);
    }),
    fcOpts,
  );
});
