// The kit's own reference services certified as a target (`wfmck serve`), where the old pre-flight ran nothing: a WFM
// whose Certificate API hangs gets a full report (the Certificate API requirements fail on the timeout, every other
// check runs), and a miaf WFM that refuses every handshake without a client certificate is certified in full.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { PLUMBING, runWfmck } from '../support/wfmck-cli.ts';
import { startServe, targetConfig } from '../support/serve-target.ts';

const byId = (r: ConformanceReport, id: string) => r.requirements.find((q) => q.id === id)!;

test(
  'a WFM whose Certificate API never answers: a full report, the Certificate API requirements fail on the timeout, the rest ran',
  { timeout: 300_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-hang-'));
    const served = await startServe(['--fault', 'CERT-GET-200:hang', '--state-dir', join(dir, 'serve')]);
    try {
      const out = join(dir, 'out');
      const r = await runWfmck(['run', '--config', targetConfig(served, dir), '--out', out, '--seed', '5', ...PLUMBING], served.env);
      assert.equal(r.code, 1, r.stdout.slice(-3000) + r.stderr);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      for (const id of ['CERT-GET-200', 'CERT-NO-AUTH', 'CERT-API-SERVED']) {
        assert.equal(byId(report, id).status, 'fail', id);
        assert.match(JSON.stringify(byId(report, id).evidence), /WFMCK_E_TIMEOUT/, `${id}: the timeout is its evidence`);
      }
      assert.deepEqual([byId(report, 'CERT-IS-ROOT-CA').status, byId(report, 'CERT-IS-ROOT-CA').blockedBy], ['blocked', ['CERT-GET-200']]);
      assert.deepEqual(
        report.requirements
          .filter((q) => q.status === 'fail')
          .map((q) => q.id)
          .sort(),
        ['CERT-API-SERVED', 'CERT-GET-200', 'CERT-NO-AUTH'],
        'nothing else fails',
      );
      assert.ok(report.summary.pass > 150, `every other check ran (${report.summary.pass} pass)`);
    } finally {
      await served.stop();
    }
  },
);

test(
  'edition miaf against a WFM that refuses every handshake without a client certificate: a full report, MIAF-MTLS-EVERY-REQUEST passes',
  { timeout: 300_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-miaf-target-'));
    const served = await startServe(['--edition', 'miaf', '--state-dir', join(dir, 'serve')]);
    try {
      const out = join(dir, 'out');
      const r = await runWfmck(['run', '--config', targetConfig(served, dir), '--out', out, '--seed', '6', ...PLUMBING], served.env);
      assert.equal(r.code, 0, r.stdout.slice(-4000) + r.stderr);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      assert.deepEqual([report.edition, report.embedded, report.summary.verdict], ['miaf', false, 'conformant']);
      assert.equal(byId(report, 'MIAF-MTLS-EVERY-REQUEST').status, 'pass');
      assert.ok(report.summary.pass > 150, `the whole miaf suite ran (${report.summary.pass} pass)`);
    } finally {
      await served.stop();
    }
  },
);
