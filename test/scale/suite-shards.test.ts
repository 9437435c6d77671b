// Suites past one machine (issue 6): `wfmck run --shard i/n` on each machine, `wfmck merge-reports` joins them, and
// the merged verdict is the one an unsharded run with the same seed gives, requirement by requirement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWfmck } from '../support/wfmck-cli.ts';

interface Report {
  summary: { pass: number; notCovered: number };
  requirements: { id: string; status: string; tests: { file: string }[] }[];
}

const GREP = 'CAP-PUT|GW-ORDER';
const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;

test(
  'two shards merged give every requirement the status of one unsharded run; a missing shard is refused',
  { timeout: 300_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-shards-'));
    const run = (out: string, ...extra: string[]) => runWfmck(['run', '--seed', '5', '--grep', GREP, '--out', join(dir, out), ...extra]);
    const [one, two] = [await run('s1', '--shard', '1/2'), await run('s2', '--shard', '2/2')];
    for (const r of [one, two]) {
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /shard \d\/2, a partial report/);
    }
    const whole = await run('whole');
    assert.equal(whole.code, 0, whole.stdout + whole.stderr);

    const merged = await runWfmck(['merge-reports', join(dir, 's1'), join(dir, 's2'), '--out', join(dir, 'merged')]);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.match(merged.stdout, /2 shards merged: INCOMPLETE: no failure/);
    const [m, w, s1] = [read(join(dir, 'merged')), read(join(dir, 'whole')), read(join(dir, 's1'))];
    assert.ok(s1.summary.pass < w.summary.pass, 'one shard alone checks only part of the requirements');
    const status = new Map(w.requirements.map((r) => [r.id, r.status]));
    assert.deepEqual(
      m.requirements.filter((r) => r.status !== status.get(r.id)).map((r) => `${r.id}: ${r.status} vs ${status.get(r.id)}`),
      [],
    );
    assert.equal(m.summary.pass, w.summary.pass);
    assert.ok(
      m.requirements.some((r) => r.tests.some((t) => t.file === 'suites/capabilities.spec.ts')),
      'test files are named from the kit root',
    );

    const partial = await runWfmck(['merge-reports', join(dir, 's1'), '--out', join(dir, 'partial')]);
    assert.equal(partial.code, 2);
    assert.match(partial.stderr, /shard\(s\) 2\/2 missing/);
  },
);
