// The reporter as Playwright runs it: a tiny real project in a temp folder, its conformance.json and .html checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEED_PROFILE } from '../../spec/profile.ts';
import type { RunContext } from '../../run/contract/context.ts';
import type { ConformanceReport } from '../../reports/conformance-json.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'node_modules/@playwright/test/cli.js');
const reporter = join(root, 'reports/requirement-reporter.ts');

const SPEC = `
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
const req = (...ids: string[]) => ({ tag: '@MUST', annotation: ids.map((description) => ({ type: 'req', description })) });
const evidence = JSON.stringify([{ id: 'x1', method: 'PUT', url: 'https://127.0.0.1:9/api/v1/capabilities/dev1',
  requestHeaders: { 'content-type': 'application/json' }, requestBody: '{}', status: 500, responseHeaders: {},
  responseBody: '<script>alert(1)</script>', startedAt: '2025-01-01T00:00:00.000Z', durationMs: 3, attempt: 1 }]);
test('CAP-PUT-201 PUT creates', req('CAP-PUT-201'), async ({}, info) => {
  await info.attach('evidence', { body: evidence, contentType: 'application/json' });
});
test('CAP-PUT-200 PUT updates', req('CAP-PUT-200'), async ({}, info) => {
  await info.attach('evidence', { body: evidence, contentType: 'application/json' });
  expect(500, 'second PUT answers 200').toBe(200);
});
const note = (n: object) => test.info().annotations.push({ type: 'wfmck-outcome', description: JSON.stringify(n) });
test('CAP-PUT-403 retired client', req('CAP-PUT-403'), async () => {
  note({ outcome: 'skip', cause: 'disabled', detail: 'needs hook retireClient' });
  test.skip(true, 'needs hook retireClient');
});
test('CAP-DELETE-204 delete', req('CAP-DELETE-204'), async ({}, info) => {
  await info.attach('evidence', { body: evidence, contentType: 'application/json' });
  note({ outcome: 'blocked', cause: 'CAP-PUT-200', message: 'setup: the PUT answered 500' });
  test.skip(true, 'blocked by CAP-PUT-200');
});
test('CAP-DELETE-404 untyped skip', req('CAP-DELETE-404'), async () => {
  test.skip(true, 'no reason given in code');
});
test('CAP-EXT-NOT-REJECTED CAP-EXT-IGNORED extensions', req('CAP-EXT-NOT-REJECTED', 'CAP-EXT-IGNORED'), async () => {
  fc.assert(fc.property(fc.integer(), (n) => n < 5), { seed: 1234 });
});
test('REG-TAGS-LAST kit broke', req('REG-TAGS-LAST'), async () => {
  note({ outcome: 'error', code: 'WFMCK_E_HOOK', message: 'hook retireClient: exited with code 127' });
  throw new Error('hook retireClient: exited with code 127');
});
test('DISC-READ-ONLY slow', req('DISC-READ-ONLY'), async () => {
  if (!process.env.SLOW) return;
  require('node:fs').writeFileSync(process.env.SLOW, 'started');
  await new Promise((r) => setTimeout(r, 60_000));
});
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-reporter-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'suites'));
  writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}\n');
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `export default { testDir: './suites', workers: 1, reporter: [[${JSON.stringify(reporter)}, { print: false }]] };\n`,
  );
  writeFileSync(join(dir, 'suites/capabilities.spec.ts'), SPEC);
  return dir;
}

function context(outDir: string): RunContext {
  return {
    kit: { name: 'wfmck', version: '9.9.9' },
    embedded: false,
    targets: { wfm: 'https://127.0.0.1:9' },
    tls: { caFiles: [] },
    profile: SEED_PROFILE,
    strictness: 'default',
    seed: 77,
    runs: 10,
    reporter: 'compact',
    outDir,
    startedAt: '2025-01-01T00:00:00.000Z',
    hooks: { assignDeployment: { kind: 'command', command: 'true', timeoutMs: 1000 } },
  };
}

function run(dir: string, env: Record<string, string>, onSpawn?: (kill: () => void) => void): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'test', '-c', join(dir, 'playwright.config.ts')], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
    onSpawn?.(() => child.kill('SIGINT'));
  });
}

const read = (outDir: string) => JSON.parse(readFileSync(join(outDir, 'conformance.json'), 'utf8')) as ConformanceReport;
const byId = (r: ConformanceReport, id: string) => r.requirements.find((q) => q.id === id)!;

test('a real Playwright run writes conformance.json and .html into the context outDir', { timeout: 90_000 }, async () => {
  const dir = project();
  try {
    const outDir = join(dir, 'out');
    const ctxFile = join(dir, 'context.json');
    writeFileSync(ctxFile, JSON.stringify(context(outDir)));
    assert.equal(await run(dir, { WFMCK_CONTEXT: ctxFile }), 1);
    const r = read(outDir);
    assert.deepEqual(Object.keys(r), [
      'kit',
      'persona',
      'edition',
      'component',
      'claims',
      'signing',
      'embedded',
      'targets',
      'caFiles',
      'profile',
      'strictness',
      'seed',
      'runs',
      'hooks',
      'startedAt',
      'endedAt',
      'interrupted',
      'summary',
      'rootCauses',
      'outages',
      'requirements',
      'problems',
    ]);
    assert.deepEqual(
      [r.kit.version, r.seed, r.runs, r.strictness, r.interrupted, r.hooks],
      ['9.9.9', 77, 10, 'default', false, ['assignDeployment']],
    );
    // A context written before personas and signing: the wfm persona, no component named, not signed.
    assert.deepEqual([r.persona, r.edition, r.component, r.signing], ['wfm', 'seed', {}, null]);
    assert.deepEqual(r.problems, [
      'test "CAP-DELETE-404 untyped skip" (suites/capabilities.spec.ts:25) was skipped without a typed cause (fixtures/outcome.ts skipIf)',
    ]);

    const pass = byId(r, 'CAP-PUT-201');
    assert.equal(pass.status, 'pass');
    assert.deepEqual(Object.keys(pass.tests[0]!), ['title', 'file', 'line', 'status', 'durationMs']);
    assert.equal(pass.tests[0]!.file, 'suites/capabilities.spec.ts');
    assert.equal(pass.evidence, undefined, 'a pass keeps no evidence');

    const fail = byId(r, 'CAP-PUT-200');
    assert.equal(fail.status, 'fail');
    assert.match(fail.tests[0]!.error!.message, /Expected: 200\s+Received: 500/);
    assert.equal(fail.tests[0]!.error!.replay, "npx wfmck run --seed 77 --grep 'CAP-PUT-200'");
    assert.equal(fail.evidence?.[0]?.responseBody, '<script>alert(1)</script>');

    assert.deepEqual(
      [byId(r, 'CAP-PUT-403').status, byId(r, 'CAP-PUT-403').reason, byId(r, 'CAP-PUT-403').skipCause],
      ['skip', 'needs hook retireClient', 'disabled'],
    );
    const blocked = byId(r, 'CAP-DELETE-204');
    assert.deepEqual([blocked.status, blocked.blockedBy, blocked.tests[0]!.status], ['blocked', ['CAP-PUT-200'], 'blocked']);
    assert.equal(blocked.evidence?.length, 1, 'a block keeps the evidence of its cause');
    // Every failure is a cause, most blocking first; the two ids one failed test judged are one cause naming both.
    assert.deepEqual(r.rootCauses, [
      { id: 'CAP-PUT-200', level: 'MUST', status: 'fail', blocks: ['CAP-DELETE-204'] },
      { id: 'CAP-EXT-NOT-REJECTED', level: 'MUST NOT', status: 'fail', blocks: [], alsoFailed: ['CAP-EXT-IGNORED'] },
    ]);
    for (const id of ['CAP-EXT-NOT-REJECTED', 'CAP-EXT-IGNORED']) {
      const e = byId(r, id).tests[0]!.error!;
      assert.equal(e.seed, 1234, `${id}: the property's seed`);
      assert.match(e.path!, /^\d+(:\d+)*$/);
      assert.equal(e.replay, `npx wfmck run --seed 1234 --path ${e.path} --grep 'CAP-EXT-NOT-REJECTED'`);
    }
    assert.deepEqual([byId(r, 'REG-TAGS-LAST').status, byId(r, 'REG-TAGS-LAST').tests[0]!.errorCode], ['error', 'WFMCK_E_HOOK']);
    assert.equal(r.summary.blocked, 1);
    assert.equal(r.summary.mustFailed, 3, 'a block is not a second failure');
    const junit = readFileSync(join(outDir, 'junit.xml'), 'utf8');
    assert.match(junit, /<error type="WFMCK_E_HOOK"/);
    assert.match(junit, /<skipped message="blocked by CAP-PUT-200: /);
    assert.match(junit, /<skipped message="disabled: needs hook retireClient"/);
    assert.equal(byId(r, 'CAP-LABELS-STABLE-NAMES').status, 'untestable');
    assert.equal(byId(r, 'CAP-FIRST-EXCHANGE').status, 'skip');
    assert.equal(byId(r, 'ONB-CLIENTID-UNIQUE').status, 'not-covered');

    assert.equal(r.summary.mustFailed, 3);
    // The hook error (REG-TAGS-LAST) outranks the failures: no verdict, whatever failed beside it.
    assert.equal(r.summary.verdict, 'no-verdict');
    assert.equal(r.summary.requirements, r.requirements.length);
    const html = readFileSync(join(outDir, 'conformance.html'), 'utf8');
    assert.equal(html.match(/<tr class="req"/g)?.length, r.requirements.length);
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without WFMCK_CONTEXT the report goes to reports/out/<timestamp> with minimal metadata', { timeout: 90_000 }, async () => {
  const dir = project();
  try {
    await run(dir, { WFMCK_CONTEXT: '', WFMCK_SEED: '5' });
    const stamps = readdirSync(join(dir, 'reports/out'));
    assert.equal(stamps.length, 1);
    assert.match(stamps[0]!, /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    const r = read(join(dir, 'reports/out', stamps[0]!));
    assert.deepEqual([r.kit.name, r.embedded, r.seed, r.runs, r.targets], ['wfmck', null, 5, null, {}]);
    assert.ok(existsSync(join(dir, 'reports/out', stamps[0]!, 'conformance.html')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interrupted run (SIGINT) still writes both files, with interrupted: true', { timeout: 90_000 }, async () => {
  const dir = project();
  try {
    const outDir = join(dir, 'out');
    const ctxFile = join(dir, 'context.json');
    const marker = join(dir, 'slow-started');
    writeFileSync(ctxFile, JSON.stringify(context(outDir)));
    const code = await run(dir, { WFMCK_CONTEXT: ctxFile, SLOW: marker }, (kill) => {
      const poll = setInterval(() => existsSync(marker) && (clearInterval(poll), kill()), 50);
    });
    assert.equal(code, 130);
    const r = read(outDir);
    assert.equal(r.interrupted, true);
    assert.deepEqual([byId(r, 'DISC-READ-ONLY').status, byId(r, 'DISC-READ-ONLY').reason], ['skip', 'interrupted before it finished']);
    assert.equal(byId(r, 'CAP-PUT-200').status, 'fail', 'results before the interrupt are kept');
    assert.ok(existsSync(join(outDir, 'conformance.html')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
