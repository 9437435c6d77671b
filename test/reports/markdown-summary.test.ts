// The job summary of a CI gate (reports/markdown-summary.ts) on real conformance.json shapes. The fixtures are two
// runs of the embedded default, `wfmck run --grep CAP-PUT --seed 7` clean and with `--fault CAP-PUT-201`, trimmed to
// the requirements that ran (evidence, fault proofs and errata dropped): summary-fixtures/cap-put-{clean,fault}.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import type { Outage } from '../../reports/outages.ts';
import { markdownSummary, mdText } from '../../reports/markdown-summary.ts';
import { summaryCommand } from '../../cli/summary.ts';
import { InputError } from '../../run/options/usage.ts';
import { syntheticReport } from './synthetic.ts';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./summary-fixtures/${name}.json`, import.meta.url), 'utf8')) as ConformanceReport;

/** The counts table's row of one outcome: its total first. */
const row = (md: string, outcome: string) => new RegExp(`^\\| ${outcome} \\| (\\d+) \\|`, 'm').exec(md)?.[1];

test('a clean run: the verdict line with its badge, edition/persona/target, every count as the report has it, no causes', () => {
  const report = fixture('cap-put-clean');
  const md = markdownSummary(report, { dir: 'wfmck-report' });
  assert.match(md.split('\n')[0]!, /^## 🟡 wfmck: INCOMPLETE: no failure, but not every MUST was judged$/);
  assert.match(md, /\*\*edition\*\* seed · \*\*persona\*\* wfm · \*\*target\*\* the embedded reference services/);
  const s = report.summary;
  for (const [outcome, n] of [
    ['pass', s.pass],
    ['fail', s.fail],
    ['blocked', s.blocked],
    ['skip', s.skip],
    ['not covered', s.notCovered],
    ['kit error', s.error],
  ] as const)
    assert.equal(row(md, outcome), String(n), outcome);
  assert.equal(row(md, '\\*\\*all\\*\\*'), undefined, 'the total row is bold');
  assert.match(md, /^\| \*\*all\*\* \| \*\*369\*\* \|/m);
  assert.doesNotMatch(md, /Failures by cause|No verdict/);
  assert.match(md, /npx wfmck run --config wfmck-report\/replay\.yaml --seed 7\n/);
});

test('CAP-PUT-201 broken: NOT CONFORMANT, the cause once with its level, one-line reason, blocked count and replay', () => {
  const report = fixture('cap-put-fault');
  const md = markdownSummary(report, { dir: 'out' });
  assert.match(md.split('\n')[0]!, /^## ❌ wfmck: NOT CONFORMANT: 1 requirement failed, 1 of them MUST$/);
  const causes = md.split('\n').filter((l) => l.startsWith('| `'));
  assert.equal(causes.length, 1, md);
  assert.match(causes[0]!, /^\| `CAP-PUT-201` \| MUST \| failed: §3, §4\.1: .*Expected: 201 · Received: 200 \| 3 \|$/);
  assert.match(md, /^- `CAP-PUT-201`: `npx wfmck run --config \S+ --seed 7 --path [0-9:]+ --grep 'CAP-PUT-201'`$/m);
  assert.equal(row(md, 'blocked'), '3');
});

test("a kit error is no verdict and named as the kit's, apart from the target's failures", () => {
  const md = markdownSummary(syntheticReport());
  assert.match(md.split('\n')[0]!, /^## ⛔ wfmck: NO VERDICT: the kit broke on 1 requirement \(2 failed besides; see the causes\)$/);
  const noVerdict = md.slice(md.indexOf('### No verdict'));
  assert.match(noVerdict, /^- kit error, not the target's: WFMCK_E_INTERNAL broke 1 check: .*`REG-TAGS-LAST`/m);
  assert.match(md.slice(0, md.indexOf('### No verdict')), /^\| `CAP-EXT-IGNORED` \| MUST \|/m, 'the failures still listed');
});

test('a target that went away mid-run is no verdict, named as an outage', () => {
  const report = fixture('cap-put-fault');
  const origin = report.targets.wfm!;
  const stopped = {
    origin,
    since: '2026-01-01T12:00:00.000Z',
    codes: ['WFMCK_E_CONNECTION'],
    requirements: ['CAP-PUT-200'],
    stopped: { target: 'WFM', origin, origins: [origin], firstFailureAt: '', declaredAt: '', afterCheck: 3, checks: 8, notRun: 5 },
  } as unknown as Outage;
  const md = markdownSummary({ ...report, outages: [stopped] });
  assert.match(
    md.split('\n')[0]!,
    /^## ⛔ wfmck: NO VERDICT: the WFM at https:\/\/127\.0\.0\.1:\d+ stopped answering at .* after check 3 of 8/,
  );
  assert.match(md, /^- target outage, the run stopped: /m);
});

test("a problem of the run itself (a test naming no requirement) is no verdict, as wfmck run's exit 2 says", () => {
  const md = markdownSummary({ ...fixture('cap-put-clean'), problems: ['run error: Error: No tests found'] });
  assert.match(md.split('\n')[0]!, /^## ⛔ wfmck: NO VERDICT: a problem of the run itself \(1\)$/);
  assert.match(md, /^- problem of the run itself: run error: Error: No tests found$/m);
});

test("a target's words cannot break the table or add markup: pipes, HTML, backticks and line breaks are text", () => {
  const report = fixture('cap-put-fault');
  const hostile = 'Received: <script>alert(1)</script> | `x` **bold**\n## heading [link](http://evil)';
  const [req] = report.requirements.filter((r) => r.id === 'CAP-PUT-201');
  for (const t of req!.tests) t.reason = hostile;
  const md = markdownSummary(report);
  const line = md.split('\n').find((l) => l.startsWith('| `CAP-PUT-201`'))!;
  assert.equal(line.split(/(?<!\\)\|/).length, 6, `four cells: ${line}`);
  assert.doesNotMatch(md, /<script>|^## heading/m);
  assert.equal(mdText('a|b<c>`d`\ne'), 'a\\|b&lt;c&gt;\\`d\\` e');
});

test('wfmck summary <dir> [--markdown]: the console words, or Markdown; no report in the folder is an input error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-summary-'));
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(fixture('cap-put-fault')));
  let text = '';
  assert.equal(
    summaryCommand([dir], (t) => void (text += t)),
    0,
  );
  assert.match(text, /^wfmck: NOT CONFORMANT: 1 requirement failed, 1 of them MUST; 369 requirements: /);
  assert.match(text, /^ {2}CAP-PUT-201 \(MUST\) failed: /m);
  text = '';
  summaryCommand([dir, '--markdown'], (t) => void (text += t));
  assert.match(text, /^## ❌ wfmck: NOT CONFORMANT/);
  assert.match(text, new RegExp(`--config ${dir}/replay\\.yaml`));
  assert.throws(() => summaryCommand([join(dir, 'nope')], () => {}), InputError);
  writeFileSync(join(dir, 'conformance.json'), '{"summary": {}}');
  assert.throws(() => summaryCommand([dir], () => {}), /not a conformance\.json of this kit's version/);
});
