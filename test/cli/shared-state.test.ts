// Checks that change the target's shared state never overlap the checks that read it (issue: the withdrawal checks ran
// inside a rotation's begin..finish on a correct identity role, and the run blamed the hook or blocked the rotation
// checks). The target is a correct identity role whose bundle withdrawal takes down the very bundle the rotation
// checks read, as a vendor's may; both Playwright workers run, so without the lock the two collide (3 runs in 4 did).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { runWfmck, TYPESCRIPT } from '../support/wfmck-cli.ts';
import { SERVE_ADMIN_HOOK } from '../support/serve-target.ts';

const HARNESS = fileURLToPath(new URL('../run/one-domain-identity.ts', import.meta.url));

test(
  'rotation and withdrawal checks against one trust domain, two workers: nothing blocked, nothing failed',
  { timeout: 600_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-shared-'));
    const target = spawn(process.execPath, [...TYPESCRIPT, HARNESS, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
    t.after(() => target.stdin!.end());
    const [line] = (await once(createInterface({ input: target.stdout! }), 'line')) as [string];
    const info = JSON.parse(line) as { identity: string; caFile: string; adminUrl: string; adminToken: string };
    const out = join(dir, 'out');
    const r = await runWfmck(
      [
        'run',
        '--persona',
        'identity',
        '--identity',
        info.identity,
        '--ca-file',
        info.caFile,
        '--grep',
        'BUNDLE|DISC|ROTATION',
        '--seed',
        '4',
        '--workers',
        '2',
        '--out',
        out,
      ],
      {
        WFMCK_ADMIN: info.adminUrl,
        WFMCK_ADMIN_TOKEN: info.adminToken,
        WFMCK_HOOK_ROTATE_TRUST_ANCHOR: SERVE_ADMIN_HOOK,
        WFMCK_HOOK_WITHDRAW_IDENTITY_DOCUMENT: SERVE_ADMIN_HOOK,
      },
    );
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    const notPassed = report.requirements
      .filter((q) => ['fail', 'blocked', 'error'].includes(q.status))
      .map((q) => `${q.id} ${q.status}: ${q.reason}`);
    assert.deepEqual(notPassed, [], r.stdout.slice(-3000));
    assert.equal(r.code, 0, r.stdout.slice(-3000) + r.stderr);
    assert.ok(
      report.requirements.some((q) => q.id === 'BUNDLE-ROTATION-OVERLAP' && q.status === 'pass'),
      'the rotation property ran and held',
    );
  },
);
