// conformance.html as text: everything from the target escaped, one row per requirement, self-contained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { renderHtml } from '../../reports/html/render.ts';
import { esc } from '../../reports/html/escape.ts';
import { readableBody } from '../../reports/html/exchanges.ts';
import { SCRIPT } from '../../reports/html/script.ts';
import { STYLE } from '../../reports/html/style.ts';
import { specSectionTitles } from '../../reports/requirement-reporter.ts';
import type { ConformanceReport } from '../../reports/conformance-json.ts';
import { FAILING_ID, exchange, syntheticReport } from './synthetic.ts';

const ATTACK = '<script>alert(1)</script>';

function hostileReport(): ConformanceReport {
  const report = syntheticReport();
  const failing = report.requirements.find((r) => r.id === FAILING_ID)!;
  failing.evidence = [
    exchange({
      url: `https://127.0.0.1/x?q="><script>alert(1)</script>`,
      requestHeaders: { [`x-${ATTACK}`]: ATTACK },
      responseHeaders: { 'content-type': `text/html"><script>alert(1)</script>` },
      responseBody: ATTACK,
    }),
  ];
  failing.tests[0]!.title = `${FAILING_ID} ${ATTACK}`;
  failing.tests[0]!.error = { message: `Received: ${ATTACK}`, replay: `npx wfmck run --grep '${FAILING_ID}'` };
  report.targets = { wfm: `https://127.0.0.1:1/${ATTACK}` };
  report.problems = [`run error: ${ATTACK}`];
  return report;
}

test('a response body containing <script>alert(1)</script> renders inert, as do headers, urls, titles and errors', () => {
  const html = renderHtml(hostileReport(), specSectionTitles());
  assert.ok(!html.includes(ATTACK), 'the attack string never appears as markup');
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'it appears as text');
  assert.equal(html.match(/<script\b/g)?.length, 1, 'the page has exactly its own script element');
  assert.ok(!/<img\b/i.test(html), 'no image element slipped in');
});

test('the CSP allows the page its own style and script only, by hash', () => {
  const html = renderHtml(syntheticReport());
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  const hash = (s: string) => createHash('sha256').update(s).digest('base64');
  assert.match(csp, /default-src 'none'/);
  assert.ok(csp.includes(`script-src 'sha256-${hash(SCRIPT)}'`));
  assert.ok(csp.includes(`style-src 'sha256-${hash(STYLE)}'`));
  assert.ok(html.includes(`<script>${SCRIPT}</script>`) && html.includes(`<style>${STYLE}</style>`), 'hashed text is the inlined text');
});

test('self-contained: no external resource of any kind', () => {
  const report = syntheticReport();
  const html = renderHtml(report);
  assert.ok(!/<(link|iframe|object|embed)\b/i.test(html));
  assert.ok(!/<[a-z]+\b[^>]*\s(src|href)=(?!"#)/i.test(html), 'no element loads anything; links only point inside the page');
  assert.ok(!/url\(/i.test(STYLE));
  // As text, a URL loads nothing; still, only the loopback targets and URLs the spec itself quotes may appear. A URL has
  // a host: prose naming the scheme alone ("an http:// trustBundleUri", a fault's description) is not one.
  const quoted = new Set(report.requirements.flatMap((r) => esc(r.text).match(/https?:\/\/[^\s"<]+/g) ?? []));
  const urls = (html.match(/https?:\/\/(?!127\.0\.0\.1[:/])[^\s"<]+/g) ?? []).filter((u) => !quoted.has(u));
  assert.deepEqual(urls, [], 'only the loopback targets and URLs quoted by the catalog appear');
});

test('one row per requirement: what needs attention first (worst first), the rest grouped by section in spec order', () => {
  const report = syntheticReport();
  const html = renderHtml(report, specSectionTitles());
  assert.equal(html.match(/<tr class="req"/g)?.length, report.requirements.length);
  const attention = html.slice(html.indexOf('<section class="attention"'), html.indexOf('<details class="spec-section"'));
  const statuses = [...attention.matchAll(/<tr class="req" id="[^"]+" data-status="([^"]+)"/g)].map((m) => m[1]!);
  assert.deepEqual(
    statuses,
    [...statuses].sort(
      (a, b) =>
        ['fail', 'error', 'blocked', 'warn', 'not-covered'].indexOf(a) - ['fail', 'error', 'blocked', 'warn', 'not-covered'].indexOf(b),
    ),
  );
  assert.equal(
    statuses.length,
    report.requirements.filter((r) => ['fail', 'error', 'blocked', 'warn', 'not-covered'].includes(r.status)).length,
  );
  const sections = [...html.matchAll(/<details class="spec-section" data-section="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(sections.slice(0, 4), ['1', '2.1', '2.1.1', '2.2']);
  assert.equal(sections.at(-1)?.startsWith('P'), true, 'profiles come last');
  assert.ok(html.includes('DeviceCapabilities (body of PUT capabilities)'));
  assert.ok(html.includes('<details class="failure"><summary>1 of 1 test failed, 2 exchanges of evidence</summary>'));
  assert.match(
    html,
    /<details class="curl copyable" open><summary>Reproduce with curl<\/summary><pre class="curl-cmd"># wfmck exchange [^\n]+\ncurl -sS -i -X PUT [^<]*--cacert &#39;\/etc\/wfmck\/ca\.pem&#39;/,
    'the exchange where the check failed: curl open, its CA by path',
  );
});

test('the header shows verdict, strictness, seed and an interrupted run', () => {
  const report = { ...syntheticReport(), interrupted: true };
  const html = renderHtml(report);
  // The synthetic run holds a kit error beside its failures: no verdict, as its exit code 2 says.
  assert.match(html, /class="verdict verdict-no-verdict">No verdict</);
  assert.match(html, /the kit broke on 1 requirement/);
  const failedOnly = { ...report, summary: { ...report.summary, verdict: 'not-conformant' as const } };
  assert.match(renderHtml(failedOnly), /class="verdict verdict-not-conformant">Not conformant</);
  assert.match(html, /<dt>Seed<\/dt><dd>42 /);
  assert.match(html, /interrupted: results are partial/);
});

test('esc and readableBody', () => {
  assert.equal(esc(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  assert.equal(esc(undefined), '');
  assert.equal(readableBody('{"a":[1]}'), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(readableBody('{"a":[1'), '{"a":[1', 'a trimmed JSON body is shown as received');
  assert.equal(readableBody('plain'), 'plain');
});
