// The requirement report names the faults that prove each check, and flags a checked requirement no fault proves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRequirements } from '../../spec/requirements.ts';
import { buildReport } from '../../reports/conformance-json.ts';
import { checkedRequirements, listingErrors } from '../../faults/harness/checked.ts';
import { faultsProving, withFaultProof } from '../../reports/fault-proof.ts';
import { renderHtml } from '../../reports/html/render.ts';
import { faultCatalog } from '../../faults/catalog.ts';
import { syntheticReport } from './synthetic.ts';
import { fault } from '../faults/helpers.ts';

const FAULTS_HERE = [fault('CAP-PUT-201'), fault('CAP-PUT-201:twice', 'wfm', ['CAP-PUT-201', 'CAP-PUT-200'])];

test('each requirement lists the faults whose breaks name it; checked with none is unproven, unchecked is not', () => {
  const meta = syntheticReport();
  const records = ['CAP-PUT-201', 'CAP-PUT-400'].map((id) => ({
    requirementIds: [id],
    title: `${id} t`,
    file: 'suites/capabilities.spec.ts',
    line: 1,
    status: 'pass' as const,
    durationMs: 1,
  }));
  const r = buildReport({ meta, catalog: loadRequirements(), records, endedAt: meta.endedAt, interrupted: false, faults: FAULTS_HERE });
  const byId = (id: string) => r.requirements.find((q) => q.id === id)!;
  assert.deepEqual(byId('CAP-PUT-201').faults, [
    { id: 'CAP-PUT-201', description: 'breaks CAP-PUT-201' },
    { id: 'CAP-PUT-201:twice', description: 'breaks CAP-PUT-201, CAP-PUT-200' },
  ]);
  assert.equal(byId('CAP-PUT-201').unproven, undefined);
  assert.deepEqual(
    [byId('CAP-PUT-400').faults, byId('CAP-PUT-400').unproven],
    [[], true],
    'checked, but no fault shows the check can fail',
  );
  assert.deepEqual(
    [byId('CAP-PUT-200').faults?.length, byId('CAP-PUT-200').unproven],
    [1, undefined],
    'not checked in this run: nothing to distrust',
  );
});

test("by default the report links the kit's own fault catalog", () => {
  const r = syntheticReport();
  for (const f of faultCatalog())
    for (const id of f.breaks)
      assert.ok(
        r.requirements.find((q) => q.id === id)?.faults?.some((p) => p.id === f.id),
        `${f.id} listed under ${id}`,
      );
  assert.deepEqual(faultsProving('NO-SUCH-REQ', faultCatalog()), []);
});

test('the HTML shows the faults in the row details and flags an unproven row visibly and searchably', () => {
  const report = syntheticReport();
  const untested = report.requirements.find((q) => q.tests.length === 0 && q.observer === 'wfm')!.id;
  report.requirements = withFaultProof(report.requirements, [...FAULTS_HERE, fault(untested)]);
  const html = renderHtml(report);
  const row = (id: string) => new RegExp(`<tr class="req" id="${id}"[^]*?</tr>`).exec(html)?.[0] ?? '';
  assert.match(row('CAP-PUT-201'), /Faults that prove these checks<\/span><ul><li><code>CAP-PUT-201<\/code> breaks CAP-PUT-201<\/li>/);
  assert.match(row(untested), /<summary>1 fault<\/summary>/, 'faults show even where no test ran');
  assert.doesNotMatch(row('CAP-PUT-200'), /class="unproven"/, 'proof is recomputed, never carried over');
  const unproven = report.requirements.find((q) => q.unproven)!;
  assert.match(row(unproven.id), /<span class="unproven" title="[^"]+">unproven<\/span>/);
  assert.match(row(unproven.id), /data-search="[^"]*unproven"/);
  assert.match(row(unproven.id), /<span class="label">Faults<\/span>none: checked by tests, but no fault/);
});

test("checked requirements come from the req annotations of Playwright's listing, nested suites included", () => {
  const listing = {
    suites: [
      {
        specs: [
          {
            tests: [
              {
                annotations: [
                  { type: 'req', description: 'CAP-PUT-201' },
                  { type: 'skip', description: 'x' },
                ],
              },
            ],
          },
        ],
        suites: [
          {
            specs: [
              {
                tests: [
                  {
                    annotations: [
                      { type: 'req', description: 'CAP-PUT-200' },
                      { type: 'req', description: 'CAP-PUT-201' },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    errors: [{ message: 'Error: suites/status.spec.ts: Cannot find module\n  at ...' }],
  };
  assert.deepEqual(checkedRequirements(listing), ['CAP-PUT-200', 'CAP-PUT-201']);
  assert.deepEqual(listingErrors(listing), ['suite listing: Error: suites/status.spec.ts: Cannot find module']);
  assert.deepEqual(checkedRequirements({}), []);
});
