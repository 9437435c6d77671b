// Issue 7: `wfmck run --registry <Debian's docker-registry>` alone gives exactly the expected verdicts. The real
// registry ignores `n` and `last` on tags/list; those requirements fail with evidence that names the cause, every
// other registry-facing requirement the suites check passes (or is the SHOULD/MAY it is expected to warn on).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRealRegistry } from '../../scripted/real-registry.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

interface Row {
  id: string;
  observer: string;
  level: string;
  status: string;
  reason?: string;
  tests: { status: string; error?: { message?: string } }[];
  evidence?: unknown[];
}

/** The departures of distribution 2.8 this test pins: each must fail, with these words in its failure message. */
const EXPECTED_FAILURES: Record<string, RegExp> = {
  'REG-TAGS-N': /n=2 answers at most 2 tags; it answered 5/,
  'REG-TAGS-LAST': /last=\S+ answers the tags after it, never \S+ itself/,
};

/** SHOULD/MAY requirements the real registry does not meet: warnings, never failures, in default strictness. */
const EXPECTED_WARNINGS = new Set<string>(['REG-SIGNED-PACKAGES', 'AUTH-REGISTRY-TOKEN', 'REG-REFERRERS']);

test(
  'Debian docker-registry alone: tag pagination fails with evidence, everything else the suites check passes',
  { timeout: 300_000 },
  async (t) => {
    const registry = await startRealRegistry();
    t.after(() => registry.close());
    const out = join(mkdtempSync(join(tmpdir(), 'wfmck-real-run-')), 'out');
    const r = await runWfmck(['run', '--registry', registry.url, '--out', out, '--workers', '2']);
    const [code, stdout] = [r.code, r.stdout + r.stderr];
    assert.equal(code, 1, `a registry that breaks a MUST exits 1\n${stdout}`);
    assert.match(stdout, /targets registry http:\/\/127\.0\.0\.1:\d+/);

    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as { embedded: boolean; requirements: Row[] };
    assert.equal(report.embedded, false, 'a run naming a registry never starts the embedded default');
    const checked = report.requirements.filter((r) => r.tests.length > 0 && r.tests.some((x) => x.status !== 'skip'));
    assert.ok(checked.length >= 50, `the registry and compose suites ran against it (${checked.length} requirements checked)`);
    assert.deepEqual(
      checked.filter((r) => r.observer !== 'registry').map((r) => r.id),
      [],
      'only registry-facing requirements are judged',
    );

    const failed = checked.filter((r) => r.status === 'fail' || r.status === 'error');
    assert.deepEqual(failed.map((r) => r.id).sort(), Object.keys(EXPECTED_FAILURES).sort(), 'exactly the known departures fail');
    for (const r of failed) {
      const message = r.tests.map((x) => x.error?.message ?? '').join('\n');
      assert.match(message, EXPECTED_FAILURES[r.id]!, `${r.id}: the failure names the cause`);
      assert.match(JSON.stringify(r.evidence ?? []), /tags\/list/, `${r.id}: the evidence carries the tags/list exchange`);
    }
    const warned = checked.filter((r) => r.status === 'warn');
    for (const r of warned)
      assert.ok(EXPECTED_WARNINGS.has(r.id), `${r.id} warns (${r.reason}); only ${[...EXPECTED_WARNINGS].join(', ')} may`);
    const others = checked.filter((r) => !(r.id in EXPECTED_FAILURES) && r.status !== 'warn');
    assert.deepEqual(
      others.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.status}`),
      [],
      'everything else passes',
    );
  },
);
