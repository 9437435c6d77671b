// `wfmck verify-report` as a user runs it (child processes): exit 0 verified, 1 a mismatch (one line per problem),
// 2 usage errors and unreadable input; and end to end after `wfmck run --sign`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey } from '../../reports/signing/keys.ts';
import { signReport } from '../../reports/signing/sign-report.ts';
import { WFMCK_BIN, runWfmck } from '../support/wfmck-cli.ts';

function flipByte(file: string, at = 10): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
}

function signedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-verify-cli-'));
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify({ kit: { name: 'wfmck', version: '0.1.0' }, summary: {}, requirements: [] }));
  writeFileSync(join(dir, 'conformance.html'), '<!doctype html>\n');
  writeFileSync(join(dir, 'junit.xml'), '<testsuites/>\n');
  signReport(dir, generateSigningKey());
  return dir;
}

test(
  'verify-report exit codes: 0 verified, 1 tampered or wrong pinned key, 2 usage and unreadable input',
  { timeout: 60_000 },
  async () => {
    const dir = signedFolder();
    // The key a user pins lives outside the folder: a file added to it after signing is itself a finding.
    const keys = mkdtempSync(join(tmpdir(), 'wfmck-verify-keys-'));
    try {
      const ok = await runWfmck(['verify-report', dir]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /integrity, not identity/);
      assert.match(ok.stdout, /verified: the signature and 3 signed files/);

      const other = join(keys, 'other.pub.pem');
      writeFileSync(other, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }));
      const wrongKey = await runWfmck(['verify-report', dir, '--key', other]);
      assert.equal(wrongKey.code, 1);
      assert.match(wrongKey.stdout, /^FAIL conformance\.dsse\.json: the signature does not verify with the pinned key/m);

      const noArgs = await runWfmck(['verify-report']);
      assert.equal(noArgs.code, 2);
      assert.match(noArgs.stderr, /takes one report folder/);
      const noDir = await runWfmck(['verify-report', join(dir, 'nope')]);
      assert.equal(noDir.code, 2);
      const badKey = await runWfmck(['verify-report', dir, '--key', join(dir, 'junit.xml')]);
      assert.equal(badKey.code, 2);
      assert.match(badKey.stderr, /not a PEM public key/);

      flipByte(join(dir, 'conformance.json'));
      const tampered = await runWfmck(['verify-report', dir]);
      assert.equal(tampered.code, 1);
      assert.deepEqual(
        tampered.stdout
          .split('\n')
          .filter((l) => l.startsWith('FAIL'))
          .map((l) => l.split(':')[0]),
        ['FAIL conformance.json'],
      );

      rmSync(join(dir, 'conformance.dsse.json'));
      const unsigned = await runWfmck(['verify-report', dir]);
      assert.equal(unsigned.code, 2);
      assert.match(unsigned.stderr, /no envelope/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(keys, { recursive: true, force: true });
    }
  },
);

test(
  'end to end: wfmck run --sign on the embedded services, then verify-report; one edited byte of the HTML fails it',
  { timeout: 120_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'wfmck-signed-run-'));
    try {
      const run = await runWfmck([
        'run',
        '--sign',
        '--grep',
        'CAP-PUT-201 PUT for a deviceId',
        '--out',
        out,
        '--component-vendor',
        'Acme',
        '--component-name',
        'acme-wfm',
        '--component-version',
        '1.2.3',
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /wfmck run: signed \d+ files with a key made for this run/);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
      assert.deepEqual(
        [report.persona, report.edition, report.component, report.signing],
        ['wfm', 'seed', { vendor: 'Acme', name: 'acme-wfm', version: '1.2.3' }, { envelope: 'conformance.dsse.json' }],
      );
      const html = readFileSync(join(out, 'conformance.html'), 'utf8');
      assert.match(html, /<dt>Component<\/dt><dd>Acme acme-wfm 1\.2\.3<\/dd>/);
      assert.match(html, /signed: see <code>conformance\.dsse\.json<\/code>/);

      const pinned = await runWfmck(['verify-report', out, '--key', join(out, 'conformance.pub.pem')]);
      assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
      assert.match(pinned.stdout, /^key: pinned /m);

      flipByte(join(out, 'conformance.html'), 200);
      const tampered = await runWfmck(['verify-report', out]);
      assert.equal(tampered.code, 1);
      assert.match(tampered.stdout, /^FAIL conformance\.html: sha256 /m);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

/** The FAIL lines of verify-report, each cut to the file it names. */
function failedFiles(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('FAIL '))
    .map((l) => l.slice(5).split(':')[0]!);
}

test(
  'end to end: replay.yaml and run-context.json are signed, and a file added after signing is named (issue 32, symptom 7)',
  { timeout: 120_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'wfmck-signed-extra-'));
    try {
      const run = await runWfmck(['run', '--sign', '--grep', 'CAP-PUT-201 PUT for a deviceId', '--out', out]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const untouched = await runWfmck(['verify-report', out]);
      assert.equal(untouched.code, 0, untouched.stdout + untouched.stderr);
      assert.match(untouched.stdout, /signed files \(.*replay\.yaml.*run-context\.json/);
      // Each edit alone, then undone: verify-report names that file and no other.
      for (const file of ['replay.yaml', 'run-context.json']) {
        const before = readFileSync(join(out, file));
        // replay.yaml holds hook shell commands: the edit a forger would make.
        writeFileSync(join(out, file), Buffer.concat([before, Buffer.from(file.endsWith('.yaml') ? '# edited\n' : ' ')]));
        const edited = await runWfmck(['verify-report', out]);
        assert.equal(edited.code, 1, edited.stdout);
        assert.deepEqual(failedFiles(edited.stdout), [file]);
        writeFileSync(join(out, file), before);
      }
      mkdirSync(join(out, 'evidence'), { recursive: true });
      writeFileSync(join(out, 'evidence', 'ZZZ.json'), '{"requirement": "ZZZ", "exchanges": []}\n');
      const added = await runWfmck(['verify-report', out]);
      assert.equal(added.code, 1, added.stdout);
      assert.deepEqual(failedFiles(added.stdout), ['evidence/ZZZ.json']);
      assert.match(added.stdout, /^FAIL evidence\/ZZZ\.json: not covered by the signature/m);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test(
  'end to end with a fault: the failing check writes evidence/<id>.json, signed; one edited byte of it fails verification',
  { timeout: 120_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'wfmck-signed-fault-'));
    try {
      const run = await runWfmck(['run', '--sign', '--fault', 'CAP-PUT-201', '--grep', 'CAP-PUT-201 PUT for a deviceId', '--out', out]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const evidence = join(out, 'evidence', 'CAP-PUT-201.json');
      assert.ok(existsSync(evidence), 'the failing requirement has an evidence file');
      const ok = await runWfmck(['verify-report', out]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /evidence\/CAP-PUT-201\.json/);
      flipByte(evidence);
      const tampered = await runWfmck(['verify-report', out]);
      assert.equal(tampered.code, 1);
      assert.match(tampered.stdout, /^FAIL evidence\/CAP-PUT-201\.json: sha256 /m);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test('an interrupted signed run is signed too: what the reporter wrote on SIGINT verifies', { timeout: 120_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'wfmck-signed-interrupted-'));
  try {
    const child = spawn(process.execPath, [WFMCK_BIN, 'run', '--sign', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit') as Promise<[number | null]>;
    const lines = createInterface({ input: child.stdout });
    const seen: string[] = [];
    let signed = false;
    for await (const line of lines) {
      seen.push(line);
      // The first spec file done (the compact console's `  <file>  N pass`): Playwright is running, so the interrupt
      // reaches its reporters.
      if (/^ {2}\S+ +\d+ (pass|fail|blocked|skip|warn|error)\b/.test(line) && !child.killed) child.kill('SIGINT');
      if (/^wfmck run: signed \d+ files/.test(line)) signed = true;
    }
    const [code] = await exited;
    assert.equal(code, 130, seen.join('\n'));
    assert.ok(signed, seen.join('\n'));
    assert.equal(JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')).interrupted, true);
    const v = await runWfmck(['verify-report', out]);
    assert.equal(v.code, 0, v.stdout + v.stderr);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
