// Picking checks by the catalog's words (--level, --section), listing them without a run (--list), and running again
// what the last run failed (--last-failed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idsGrep, selectedIds, selectionGrep } from '../../run/contract/selection.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import { WFMCK_BIN } from '../support/wfmck-cli.ts';

const catalog = loadRequirements();

test('--level MUST takes MUST NOT with it; --section 4.1 takes 4.1.x and nothing of 4.10', () => {
  const must = selectedIds({ levels: ['MUST'] }, catalog)!;
  assert.ok(must.length > 100);
  assert.ok(must.every((id) => ['MUST', 'MUST NOT'].includes(catalog.find((r) => r.id === id)!.level)));
  assert.ok(must.some((id) => catalog.find((r) => r.id === id)!.level === 'MUST NOT'));
  const sec = selectedIds({ sections: ['2.1'] }, catalog)!;
  assert.ok(sec.length > 0 && sec.every((id) => /^2\.1(\.|$)/.test(catalog.find((r) => r.id === id)!.section)));
  assert.equal(selectedIds({ grep: 'X' }, catalog), undefined, 'no catalog words: every id');
});

test('the grep matches whole ids only, and a user --grep must hold as well', () => {
  const re = new RegExp(idsGrep(['STATUS-PRECEDENCE']));
  assert.equal(re.test('STATUS-PRECEDENCE the overall state'), true);
  assert.equal(re.test('STATUS-PRECEDENCE-REMOVED the overall state'), false);
  const both = new RegExp(selectionGrep({ grep: 'random', ids: ['CAP-PUT-201'] }, catalog)!);
  assert.equal(both.test('CAP-PUT-201 CAP-PUT-200 random valid documents'), true);
  assert.equal(both.test('CAP-PUT-201 PUT for a deviceId with no document creates it: 201'), false);
  assert.equal(
    new RegExp(selectionGrep({ sections: ['99'] }, catalog)!).test('CAP-PUT-201 x'),
    false,
    'an empty selection matches nothing',
  );
});

function wfmck(args: string[], cwd: string) {
  return spawnSync(process.execPath, [WFMCK_BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

test('--list --level MUST --section 4.1 prints ids and titles and starts nothing', { timeout: 60_000 }, () => {
  const r = wfmck(['run', '--list', '--level', 'MUST', '--section', '4.1'], mkdtempSync(join(tmpdir(), 'wfmck-list-')));
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.ok(
    lines.some((l) => /^CAP-PUT-201 PUT for a deviceId with no document creates it: 201 {2}\(capabilities\.spec\.ts:\d+\)$/.test(l)),
    r.stdout,
  );
  assert.ok(
    lines.slice(0, -1).every((l) => /^[A-Z][A-Z0-9-]+ .* {2}\(\S+\.spec\.ts:\d+\)$/.test(l)),
    'each line: a title starting with its ids, and its file',
  );
  assert.match(lines.at(-1)!, /^wfmck run: \d+ checks of \d+ requirements \(persona wfm\); nothing was started$/);
  assert.doesNotMatch(r.stdout, /embedded reference services/);
});

test('--last-failed runs again what the newest run under reports/out failed, with its replay.yaml', { timeout: 60_000 }, () => {
  const cwd = mkdtempSync(join(tmpdir(), 'wfmck-last-'));
  const old = join(cwd, 'reports', 'out', '2026-01-01T00-00-00-000Z');
  mkdirSync(old, { recursive: true });
  writeFileSync(
    join(old, 'conformance.json'),
    JSON.stringify({
      requirements: [
        { id: 'CAP-DELETE-204', status: 'fail' },
        { id: 'CAP-PUT-201', status: 'pass' },
      ],
    }),
  );
  writeFileSync(join(old, 'replay.yaml'), 'persona: wfm\nstrictness: default\n');
  const r = wfmck(['run', '--last-failed', '--list'], cwd);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /^wfmck run: --last-failed: the 1 requirement .* failed: CAP-DELETE-204$/m);
  const titles = r.stdout.split('\n').filter((l) => / {2}\(\S+:\d+\)$/.test(l));
  assert.ok(titles.length > 0 && titles.every((l) => /\bCAP-DELETE-204\b/.test(l)), titles.join('\n'));
  writeFileSync(join(old, 'conformance.json'), JSON.stringify({ requirements: [{ id: 'CAP-PUT-201', status: 'pass' }] }));
  const none = wfmck(['run', '--last-failed'], cwd);
  assert.equal(none.status, 0);
  assert.match(none.stdout, /failed no requirement: nothing to run again/);
});
