// `wfmck faults` as a user runs it, in a child process: the one end-to-end run (CAP-PUT-201 caught, nothing fails on
// the clean services), --list, and refusals before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faultCatalog } from '../../faults/catalog.ts';
import type { FaultsReport } from '../../faults/harness/faults-json.ts';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { runWfmck, type CliResult } from '../support/wfmck-cli.ts';

const wfmck = (args: string[]): Promise<CliResult> => runWfmck(args);

const outDir = () => join(mkdtempSync(join(tmpdir(), 'wfmck-faults-')), 'out');

test(
  'end to end: --only CAP-PUT-201 is caught, the clean services fail nothing, faults.json and the table say so',
  { timeout: 180_000 },
  async () => {
    const out = outDir();
    const r = await wfmck(['faults', '--only', 'CAP-PUT-201', '--out', out, '--seed', '11']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(out, 'faults.json'), 'utf8')) as FaultsReport;
    assert.deepEqual(
      report.faults.map((f) => [f.id, f.service, f.requirements, f.caught, f.failedRequirements.includes('CAP-PUT-201'), f.seed]),
      [['CAP-PUT-201', 'wfm', ['CAP-PUT-201', 'CAP-LIFE-CREATED'], true, true, 11]],
    );
    assert.deepEqual(report.summary, {
      total: 1,
      caught: 1,
      missed: 0,
      falseFailuresOnClean: 0,
      flaky: 0,
      exactness: { wfm: { exact: 1, total: 1 } },
    });
    assert.equal(
      report.clean.scope,
      faultCatalog().length === 1 ? 'all' : 'selected',
      'a subset checks its own tests on the clean services',
    );
    assert.match(r.stdout, /^CAP-PUT-201 +wfm +✓ += +\S*CAP-PUT-201\S* +\d+ +\d+\.\d s$/m);
    assert.match(r.stdout, /faults: 1 passed, 0 failed\n$/);
    const run = JSON.parse(readFileSync(join(out, 'CAP-PUT-201', 'conformance.json'), 'utf8')) as ConformanceReport;
    const put = run.requirements.find((q) => q.id === 'CAP-PUT-201')!;
    assert.deepEqual(
      [put.status, put.faults?.map((f) => f.id)],
      ['fail', ['CAP-PUT-201']],
      'the faulted run failed it, and its report names the fault',
    );
    assert.ok(existsSync(join(out, 'clean', 'conformance.json')), 'the clean control ran into its own folder');
  },
);

test("--list prints every fault of the catalog (the services' and the kit client's) and exits 0 without running anything", async () => {
  const r = await wfmck(['faults', '--list']);
  assert.equal(r.code, 0, r.stderr);
  const all = faultCatalog();
  for (const f of all) assert.ok(r.stdout.includes(f.id) && r.stdout.includes(f.description), f.id);
  assert.match(r.stdout, new RegExp(`^${all.length} faults?$`, 'm'));
});

test('an unknown fault, a bad --repeat, --only with --quick: exit 2 with the reason, nothing written', async () => {
  const out = outDir();
  const unknown = await wfmck(['faults', '--only', 'NO-SUCH-FAULT', '--out', out]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown fault "NO-SUCH-FAULT"/);
  const repeat = await wfmck(['faults', '--repeat', '0', '--out', out]);
  assert.deepEqual([repeat.code, /--repeat: must be at least 1/.test(repeat.stderr)], [2, true]);
  const both = await wfmck(['faults', '--only', 'CAP-PUT-201', '--quick', '--out', out]);
  assert.deepEqual([both.code, /give one/.test(both.stderr)], [2, true]);
  assert.equal(existsSync(out), false);
});

test(
  'a batch judges each fault exactly as a run of it alone: the same failed and blocked requirements, each report in its own folder',
  { timeout: 300_000 },
  async () => {
    const judged = async (batch: string) => {
      const out = outDir();
      const r = await wfmck(['faults', '--only', 'CAP-PUT-201,DISC-200', '--batch', batch, '--out', out, '--seed', '11']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const report = JSON.parse(readFileSync(join(out, 'faults.json'), 'utf8')) as FaultsReport;
      for (const id of ['CAP-PUT-201', 'DISC-200']) assert.ok(existsSync(join(out, id, 'conformance.json')), `${id} has its own report`);
      return { out, faults: report.faults.map((f) => [f.id, f.caught, f.failedRequirements, f.blockedRequirements]) };
    };
    const together = await judged('2');
    assert.ok(existsSync(join(together.out, 'batches', '1', 'batch.json')), 'the two faults ran as one batch');
    const alone = await judged('1');
    assert.ok(!existsSync(join(alone.out, 'batches')), '--batch 1 runs each alone');
    assert.deepEqual(together.faults, alone.faults);
    assert.deepEqual(
      together.faults.map(([id, caught]) => [id, caught]),
      [
        ['CAP-PUT-201', true],
        ['DISC-200', true],
      ],
    );
  },
);
