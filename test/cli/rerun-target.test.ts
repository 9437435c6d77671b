// A target keeps what earlier runs left: a vendor's registry is certified again and again. Package bytes are
// deterministic, so a second run pushes the same manifests beside the first run's signature (signed with another
// key); a check that read "the first signature listed" blamed the registry for the kit's own leftovers (a warn of
// REG-SIGNED-PACKAGES on every run after the first). Two runs against one `wfmck serve` must judge alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { runWfmck } from '../support/wfmck-cli.ts';
import { startServe } from '../support/serve-target.ts';

test(
  'the registry certified twice in a row: the second run judges as the first, nothing warns or fails',
  { timeout: 300_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-rerun-'));
    const served = await startServe(['--state-dir', join(dir, 'serve')]);
    try {
      const statuses: Record<string, string>[] = [];
      for (const n of [1, 2]) {
        const out = join(dir, `out${n}`);
        const args = ['run', '--registry', String(served.info.registry), '--ca-file', String(served.info.caFile), '--out', out];
        const r = await runWfmck([...args, '--seed', String(n)], served.env);
        assert.equal(r.code, 0, r.stdout.slice(-3000) + r.stderr);
        const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
        const judged = report.requirements.filter((q) => q.status !== 'skip' && q.status !== 'untestable');
        assert.deepEqual(
          judged.filter((q) => q.status !== 'pass').map((q) => `${q.id} ${q.status}`),
          [],
          `run ${n}: every judged requirement passes`,
        );
        statuses.push(Object.fromEntries(judged.map((q) => [q.id, q.status])));
      }
      assert.ok(statuses[0]!['REG-SIGNED-PACKAGES'] === 'pass', 'the signature check ran');
      assert.deepEqual(statuses[1], statuses[0]);
    } finally {
      await served.stop();
    }
  },
);
