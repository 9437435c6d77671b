// Property tests of `wfmck lint` on capabilities: documents a WFM must accept never fail at default strictness; every
// document it must refuse fails with a MUST finding. Replay with WFMCK_SEED=<seed> WFMCK_PATH=<path>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { invalidCapabilities, validCapabilities } from '../../simulators/data/arbitraries.ts';
import { lintCapabilities } from '../../spec/lint/capabilities.ts';
import { exitCodeOf, lintReport } from '../../spec/lint/report.ts';

const fcOpts = { seed: process.env.WFMCK_SEED ? Number(process.env.WFMCK_SEED) : undefined, path: process.env.WFMCK_PATH, numRuns: 200 };
const report = (doc: unknown) => lintReport('caps.json', lintCapabilities(JSON.stringify(doc), 'caps.json'), 'default');

test('§2.1: a valid document (hosting or identity-only, either quantity form) passes at default strictness', () => {
  fc.assert(
    fc.property(validCapabilities(), (doc) => assert.equal(exitCodeOf(report(doc)), 0, JSON.stringify(report(doc).findings))),
    fcOpts,
  );
});

test('§2.1: each document a WFM must refuse fails lint with a MUST finding that names its requirement', () => {
  fc.assert(
    fc.property(invalidCapabilities(), ({ doc, defect }) => {
      const r = report(doc);
      assert.equal(exitCodeOf(r), 1, `${defect}: ${JSON.stringify(r.findings)}`);
      assert.ok(r.findings.every((f) => /^[A-Z]+(-[A-Z0-9]+)+$/.test(f.requirement)));
    }),
    fcOpts,
  );
});
