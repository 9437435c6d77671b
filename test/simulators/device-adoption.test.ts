// §2.4.1 adoptedManifestVersion of the simulated device, model-based: random update / fetch / apply / loss sequences
// against the pure machine and a fake WFM, compared after every step with a tiny independent model.
// Replay a failure with WFMCK_SEED=<seed> (fast-check prints the seed and path).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  beginTick,
  initialMachine,
  loseLocalState,
  nextAction,
  afterResult,
  slotOf,
  type MachineState,
} from '../../simulators/device/machine.ts';
import { reportedVersion } from '../../spec/rules/manifest-version.ts';
import { FakeWfm } from './device-fake-wfm.ts';
import { fcOptions } from '../support/fc.ts';

const fcOpts = fcOptions(300);
const D = 'd-under-test';

/** The oracle: the revision (by digest) held and the manifest it was adopted from; the newest seen but not begun. */
interface Model {
  held?: { version: number; digest: string };
  pending?: { version: number; digest: string };
  /** Every adoptedManifestVersion D was reported with, in order. */
  reported: number[];
}
interface Real {
  wfm: FakeWfm;
  s: MachineState;
}
type Cmd = fc.Command<Model, Real>;

const digestOfD = (r: Real) => r.wfm.deployments.find((d) => d.deploymentId === D)!.digest;

function verify(m: Model, r: Real): void {
  const slot = slotOf(r.s, D);
  assert.equal(slot && reportedVersion(slot.adoption), m.held?.version, 'rules 3-4: the held version, never a fetched one');
  const reports = r.wfm.reports.filter((x) => x.deploymentId === D).map((x) => x.adoptedManifestVersion);
  for (const v of reports.slice(m.reported.length))
    assert.equal(v, m.held?.version, 'every report since the last step carries the held version');
  m.reported = reports;
  const sorted = [...reports].sort((a, b) => a - b);
  assert.deepEqual(reports, sorted, 'rule 7: reported versions never go back');
}

class PublishRevision implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    r.wfm.publish((ds) => ds.map((d) => (d.deploymentId === D ? { ...d, digest: `sha256:${r.wfm.version + 1}` } : d)));
    verify(m, r);
  }
  toString = () => 'publishRevision';
}

/** A new manifestVersion in which D is unchanged (another deployment comes or goes). */
class PublishOther implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    r.wfm.publish((ds) =>
      ds.some((d) => d.deploymentId === 'other')
        ? ds.filter((d) => d.deploymentId !== 'other')
        : [...ds, { deploymentId: 'other', digest: `sha256:o${r.wfm.version}`, components: ['o'] }],
    );
    verify(m, r);
  }
  toString = () => 'publishOther';
}

class Fetch implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    r.s = beginTick(r.s);
    const action = nextAction(r.s);
    assert.equal(action.type, 'poll');
    r.s = afterResult(r.s, action, r.wfm.respond(r.s, action));
    const digest = digestOfD(r);
    if (digest !== m.held?.digest && digest !== m.pending?.digest) m.pending = { version: r.wfm.version, digest };
    verify(m, r);
  }
  toString = () => 'fetch';
}

class Apply implements Cmd {
  constructor(readonly succeeds: boolean) {}
  check = () => true;
  run(m: Model, r: Real): void {
    r.wfm.outcomes = [this.succeeds ? 'installed' : 'failed'];
    r.s = r.wfm.run(r.s);
    // Rules 1 and 5: beginning to apply adopts, whatever the outcome; a revision whose YAML the WFM no longer
    // serves (P4: 404 for a digest it cannot serve) cannot be held, so it stays pending until the next fetch.
    if (m.pending?.digest === digestOfD(r)) {
      m.held = m.pending;
      m.pending = undefined;
    }
    verify(m, r);
  }
  toString = () => `apply(${this.succeeds ? 'ok' : 'fails'})`;
}

class Loss implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    r.s = loseLocalState(r.s);
    m.held = undefined;
    m.pending = undefined;
    verify(m, r);
  }
  toString = () => 'loseLocalState';
}

test('§2.4.1 rules 1-7: the device reports the version it adopted from, under random update/fetch/apply/loss', () => {
  const commands = [
    fc.constant(new PublishRevision()),
    fc.constant(new PublishOther()),
    fc.constant(new Fetch()),
    fc.boolean().map((ok) => new Apply(ok)),
    fc.constant(new Loss()),
  ];
  fc.assert(
    fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
      const wfm = new FakeWfm();
      wfm.publish(() => [{ deploymentId: D, digest: 'sha256:first', components: ['web'] }]);
      const real: Real = { wfm, s: wfm.run(initialMachine(1)) };
      fc.modelRun(() => ({ model: { reported: [] }, real }), cmds);
    }),
    fcOpts,
  );
});
