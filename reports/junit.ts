// junit.xml from the requirement report, so CI sees the typed outcomes: a failure is <failure>, a kit error <error
// type="WFMCK_E_...">, a block and a skip are <skipped> with their cause, and every test case names its requirement ids
// and outcome as properties. One <testsuite> per suite file. Pure: the report in, XML out.
import type { ConformanceReport } from './conformance-json.ts';
import type { TestEntry, TestStatus } from './matrix.ts';

export const JUNIT_FILE = 'junit.xml';

interface Case extends TestEntry {
  requirementIds: string[];
}

// The worst view of a test wins: a requirement whose own check held shows the test as a pass, the test itself failed.
const RANK: Record<TestStatus, number> = { pass: 0, skip: 1, blocked: 2, warn: 3, error: 4, fail: 5 };

function xml(text: string): string {
  // XML 1.0 cannot carry most control characters even escaped: they are dropped.
  return text
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Each test once, with every requirement id it checks. */
function casesOf(report: Pick<ConformanceReport, 'requirements'>): Case[] {
  const byKey = new Map<string, Case>();
  for (const r of report.requirements) {
    for (const t of r.tests) {
      const key = `${t.file}:${t.line}:${t.title}`;
      const seen = byKey.get(key);
      if (!seen) byKey.set(key, { ...t, requirementIds: [r.id] });
      else {
        seen.requirementIds.push(r.id);
        if (RANK[t.status] > RANK[seen.status]) byKey.set(key, { ...t, requirementIds: seen.requirementIds });
      }
    }
  }
  return [...byKey.values()];
}

function body(c: Case): string {
  const message = xml(c.reason ?? '');
  switch (c.status) {
    case 'fail':
      return `<failure type="fail" message="${message}">${xml(c.error?.message ?? c.reason ?? '')}${c.error?.replay ? `\nreplay: ${xml(c.error.replay)}` : ''}</failure>`;
    case 'error':
      return `<error type="${xml(c.errorCode ?? 'WFMCK_E_INTERNAL')}" message="${message}">${xml(c.error?.message ?? '')}</error>`;
    case 'blocked':
      return `<skipped message="${xml(`blocked by ${c.blockedBy}: `)}${message}"/>`;
    case 'skip':
      return `<skipped message="${xml(c.skipCause ? `${c.skipCause}: ` : '')}${message}"/>`;
    case 'warn':
      return `<system-out>${xml(`warning: ${c.reason ?? ''}`)}</system-out>`;
    default:
      return '';
  }
}

function caseXml(c: Case): string {
  const props = [
    ['wfmck.outcome', c.status],
    ['wfmck.requirements', c.requirementIds.join(' ')],
    ...(c.blockedBy ? [['wfmck.blockedBy', c.blockedBy]] : []),
    ...(c.skipCause ? [['wfmck.skipCause', c.skipCause]] : []),
    ...(c.errorCode ? [['wfmck.errorCode', c.errorCode]] : []),
  ]
    .map(([n, v]) => `<property name="${xml(n!)}" value="${xml(v!)}"/>`)
    .join('');
  return (
    `    <testcase name="${xml(c.title)}" classname="${xml(c.file)}" time="${(c.durationMs / 1000).toFixed(3)}">` +
    `<properties>${props}</properties>${body(c)}</testcase>`
  );
}

export function junitXml(report: Pick<ConformanceReport, 'requirements' | 'summary' | 'startedAt' | 'interrupted'>): string {
  const cases = casesOf(report);
  const files = [...new Set(cases.map((c) => c.file))].sort();
  const count = (cs: readonly Case[], ...st: TestStatus[]) => cs.filter((c) => st.includes(c.status)).length;
  const suites = files.map((file) => {
    const cs = cases.filter((c) => c.file === file);
    const time = cs.reduce((n, c) => n + c.durationMs, 0) / 1000;
    return (
      `  <testsuite name="${xml(file)}" tests="${cs.length}" failures="${count(cs, 'fail')}" errors="${count(cs, 'error')}" skipped="${count(cs, 'skip', 'blocked')}" time="${time.toFixed(3)}">\n` +
      `${cs.map(caseXml).join('\n')}\n  </testsuite>`
    );
  });
  const s = report.summary;
  const props = [
    ['wfmck.verdict', s.verdict],
    ['wfmck.mustFailed', String(s.mustFailed)],
    ['wfmck.interrupted', String(report.interrupted)],
    ...(['pass', 'fail', 'warn', 'blocked', 'skip', 'error', 'untestable', 'notCovered'] as const).map((k) => [
      `wfmck.requirements.${k}`,
      String(s[k]),
    ]),
  ]
    .map(([n, v]) => `<property name="${xml(n!)}" value="${xml(v!)}"/>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="wfmck conformance" tests="${cases.length}" failures="${count(cases, 'fail')}" errors="${count(cases, 'error')}" skipped="${count(cases, 'skip', 'blocked')}" timestamp="${xml(report.startedAt)}">\n` +
    `  <properties>${props}</properties>\n${suites.join('\n')}\n</testsuites>\n`
  );
}
