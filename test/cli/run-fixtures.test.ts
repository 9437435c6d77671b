// The suite fixtures as Playwright runs them (inline specs in a temp folder, a JSON report): collection-time guards,
// evidence attached with the wfmck-test-id header and a curl replay, and a missing hook reported as a skip.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbedded, writeTrustFiles, type Embedded } from '../../run/processes/embedded.ts';
import { resolveProfile } from '../../spec/profile.ts';
import type { RunContext } from '../../run/contract/context.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const head = `import { test, expect } from '${root}fixtures/wfmck.ts';\nimport { req } from '${root}fixtures/req.ts';\n`;

const SPECS: Record<string, string> = {
  'evidence.spec.ts': `${head}
test('CAP-DELETE-204 a failing check keeps its exchanges', req('CAP-DELETE-204'), async ({ device }) => {
  const client = await device();
  expect((await client.api.deleteCapabilities(client.deviceId())).status).toBe(204);
});
test('CAP-PUT-403 a check whose hook is not configured', req('CAP-PUT-403'), async ({ hooks }) => {
  hooks.require('retireClient');
});`,
  'title.spec.ts': `${head}test('PUT creates a document', req('CAP-PUT-201'), async () => {});`,
  'unknown.spec.ts': `${head}test('CAP-NO-SUCH-ID something', req('CAP-NO-SUCH-ID'), async () => {});`,
  'bare.spec.ts': `${head}test.skip('CAP-PUT-201 declared without req()', async () => {});`,
};

interface JsonResult {
  status: string;
  annotations: { type: string; description?: string }[];
  attachments: { name: string; contentType: string; body?: string }[];
}
interface JsonSpec {
  title: string;
  file: string;
  line: number;
  tests: { results: JsonResult[]; annotations: { type: string; description?: string }[] }[];
}
interface JsonSuite {
  specs: JsonSpec[];
  suites?: JsonSuite[];
}

function specs(suites: JsonSuite[]): JsonSpec[] {
  return suites.flatMap((s) => [...s.specs, ...specs(s.suites ?? [])]);
}

interface JsonReport {
  errors: { message: string }[];
  suites: JsonSuite[];
}

describe('suite fixtures under Playwright', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-inline-'));
  let embedded: Embedded;
  let caFile: string;
  let evidenceRun: JsonReport;

  // Asynchronous: the embedded services answer from this process's event loop.
  const playwright = async (...filters: string[]): Promise<JsonReport> => {
    const child = spawn(process.execPath, [cli, 'test', '--config', join(dir, 'playwright.config.mjs'), ...filters], {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, WFMCK_CONTEXT: join(dir, 'run-context.json'), CI: '' },
    });
    await once(child, 'exit');
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as JsonReport;
  };

  before(async () => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
    writeFileSync(
      join(dir, 'playwright.config.mjs'),
      `export default { testDir: '.', workers: 1, reporter: [['json', { outputFile: 'results.json' }]], outputDir: 'test-results' };\n`,
    );
    for (const [name, text] of Object.entries(SPECS)) writeFileSync(join(dir, name), text);
    embedded = await startEmbedded();
    const files = await writeTrustFiles(embedded, dir);
    caFile = files.caFile;
    const ctx: RunContext = {
      kit: { name: 'wfmck', version: 'test' },
      embedded: true,
      targets: { wfm: embedded.wfm },
      tls: { caFiles: [files.caFile] },
      deviceCa: { certFile: files.deviceCaCertFile, keyFile: files.deviceCaKeyFile },
      profile: resolveProfile(),
      strictness: 'default',
      seed: 1,
      runs: 1,
      reporter: 'compact',
      hooks: {},
      outDir: dir,
      startedAt: new Date().toISOString(),
    };
    writeFileSync(join(dir, 'run-context.json'), JSON.stringify(ctx));
    evidenceRun = await playwright('evidence.spec');
  });
  after(() => embedded?.close());

  test('a title without its ids, an unknown id, a test without req(): the file fails at collection', async () => {
    const errors = (await playwright('title.spec', 'unknown.spec', 'bare.spec')).errors.map((e) => e.message).join('\n');
    assert.match(errors, /test "PUT creates a document" must start with its requirement ids "CAP-PUT-201"/);
    assert.match(errors, /unknown requirement id CAP-NO-SUCH-ID/);
    assert.match(errors, /test "CAP-PUT-201 declared without req\(\)" names no requirement/);
  });

  test('a test is declared at its line in the spec file, not in the fixtures module', () => {
    assert.deepEqual(evidenceRun.errors, []);
    const spec = specs(evidenceRun.suites).find((s) => s.title.startsWith('CAP-DELETE-204'))!;
    assert.deepEqual([spec.file, spec.line], ['evidence.spec.ts', 4]);
  });

  test('every exchange is attached as evidence, carries wfmck-test-id, and has a curl replay', () => {
    const result = specs(evidenceRun.suites).find((s) => s.title.startsWith('CAP-DELETE-204'))!.tests[0]!.results[0]!;
    assert.equal(result.status, 'failed');
    const evidence = result.attachments.find((a) => a.name === 'evidence')!;
    assert.equal(evidence.contentType, 'application/json');
    const exchanges = JSON.parse(Buffer.from(evidence.body!, 'base64').toString('utf8')) as {
      method: string;
      url: string;
      status: number;
      requestHeaders: Record<string, string>;
    }[];
    assert.equal(exchanges[0]!.method, 'POST', 'onboarding is part of the evidence');
    const last = exchanges.at(-1)!;
    assert.deepEqual([last.method, last.status], ['DELETE', 404]);
    assert.match(new URL(last.url).pathname, /^\/api\/v1\/capabilities\/wfmck-dev-[0-9a-f]{10}$/);
    for (const x of exchanges) assert.match(x.requestHeaders['wfmck-test-id'] ?? '', /\w/);
    const curl = Buffer.from(result.attachments.find((a) => a.name === 'curl')!.body!, 'base64').toString('utf8');
    assert.equal(curl.match(/^curl /gm)?.length, exchanges.length, 'one curl per exchange');
    assert.ok(curl.includes(`--cacert '${caFile}'`));
  });

  test('hooks.require on a hook that is not configured skips with "needs hook <name>"', () => {
    const skipped = specs(evidenceRun.suites).find((s) => s.title.startsWith('CAP-PUT-403'))!.tests[0]!;
    assert.equal(skipped.results[0]!.status, 'skipped');
    assert.deepEqual(
      skipped.annotations.filter((a) => a.type === 'skip').map((a) => a.description),
      ['needs hook retireClient'],
    );
  });
});
