// Issue 15: the registry persona against Debian's docker-registry gives the same verdict run after run. Each run has
// its own fast-check seed and pushes into the same registry (artifacts per worker, so two workers never race on one
// repository); a flake shows as one run's verdict differing from the first's. WFMCK_REAL_REGISTRY_RUNS sets the count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRealRegistry } from '../../scripted/real-registry.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

const RUNS = Number(process.env.WFMCK_REAL_REGISTRY_RUNS ?? 10);

interface Report {
  summary: { verdict?: string };
  requirements: { id: string; status: string }[];
}

test(
  `the registry persona against docker-registry: the same verdict ${RUNS} runs out of ${RUNS}`,
  { timeout: RUNS * 120_000 },
  async (t) => {
    const registry = await startRealRegistry();
    t.after(() => registry.close());
    const root = mkdtempSync(join(tmpdir(), 'wfmck-real-repeat-'));
    const verdicts: string[] = [];
    for (let i = 1; i <= RUNS; i++) {
      const out = join(root, `run-${i}`);
      const r = await runWfmck(['run', '--persona', 'registry', '--registry', registry.url, '--out', out, '--workers', '2']);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Report;
      const judged = report.requirements
        .filter((x) => x.status !== 'skip')
        .map((x) => `${x.id}=${x.status}`)
        .sort();
      verdicts.push(`exit ${r.code}\n${judged.join('\n')}`);
      assert.equal(
        verdicts[i - 1],
        verdicts[0],
        `run ${i} of ${RUNS} (${out}) differs from run 1 (${join(root, 'run-1')})\n${r.stdout
          .split('\n')
          .filter((l) => l.startsWith('wfmck run:'))
          .join('\n')}`,
      );
    }
    assert.match(verdicts[0]!, /^exit 1\n/, 'docker-registry breaks the two tag-pagination MUSTs (verdicts.test.ts pins them): exit 1');
    assert.match(verdicts[0]!, /REG-TAGS-N=fail/);
  },
);
