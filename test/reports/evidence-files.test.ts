// Evidence as files: each requirement with evidence gets evidence/<id>.json, named in the report it came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listedEvidenceFiles, withEvidenceFiles } from '../../reports/evidence-files.ts';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { syntheticReport } from './synthetic.ts';

test('a requirement with evidence gets evidence/<id>.json holding its exchanges; one without gets none', () => {
  const base = syntheticReport();
  const failing = base.requirements.find((r) => r.status === 'pass')!;
  const exchange = {
    id: 'x1',
    method: 'PUT',
    url: 'https://127.0.0.1:9/api',
    requestHeaders: {},
    startedAt: '',
    durationMs: 1,
    attempt: 1,
    status: 200,
  };
  const withEvidence = { ...failing, evidence: [exchange] };
  const report: ConformanceReport = {
    ...base,
    requirements: base.requirements.map((r) => (r.id === failing.id ? withEvidence : { ...r, evidence: undefined })),
  };
  const { report: out, files } = withEvidenceFiles(report);
  assert.deepEqual(
    files.map((f) => f.path),
    [`evidence/${failing.id}.json`],
  );
  assert.deepEqual(JSON.parse(files[0]!.text), { requirement: failing.id, exchanges: [exchange] });
  assert.deepEqual(listedEvidenceFiles(out), [`evidence/${failing.id}.json`]);
  assert.equal(out.requirements.filter((r) => r.evidenceFile).length, 1);
});

test('an id with characters outside [A-Za-z0-9._-] cannot make a path leave the evidence folder', () => {
  const base = syntheticReport();
  const odd = {
    ...base.requirements[0]!,
    id: '../../X/Y',
    evidence: [{ id: '', method: 'GET', url: 'u', requestHeaders: {}, startedAt: '', durationMs: 0, attempt: 1 }],
  };
  const { files } = withEvidenceFiles({ ...base, requirements: [odd] });
  assert.deepEqual(
    files.map((f) => f.path),
    ['evidence/.._.._X_Y.json'],
  );
});
