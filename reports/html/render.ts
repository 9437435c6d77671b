// conformance.html: one self-contained page (inline CSS and JS, no network) a person reads. A CSP that allows only
// the page's own style and script by hash is a second wall behind escaping: injected markup could not run anyway.
import { createHash } from 'node:crypto';
import { LEVELS, OBSERVERS } from '../../spec/requirements.ts';
import type { ClientStarter, ConformanceReport } from '../conformance-json.ts';
import { REQUIREMENT_STATUSES, type RequirementResult, type Verdict } from '../matrix.ts';
import { esc, token } from './escape.ts';
import { causesHtml } from './causes.ts';
import { ATTENTION, attentionHtml, sectionHtml } from './rows.ts';
import { personaOf } from '../../run/contract/personas.ts';
import { SKIP_CAUSE_TEXT } from './skip-causes.ts';
import type { SkipCause } from '../../run/contract/outcomes.ts';
import { SCRIPT } from './script.ts';
import { STYLE } from './style.ts';

const VERDICT_TEXT: Record<Verdict, string> = {
  conformant: 'Conformant',
  'not-conformant': 'Not conformant',
  incomplete: 'Incomplete',
  'no-verdict': 'No verdict',
};

const STATUS_HELP: Record<string, string> = {
  pass: 'every test passed',
  fail: 'a test failed and the level fails at this strictness',
  warn: 'a test failed; the level only warns at this strictness',
  blocked: "not judged: a precondition failed on another requirement's check (its cause is the finding)",
  skip: "not judged: needs a hook or setting, unsupported by the target, another persona's or edition's, or not claimed",
  error: 'the kit broke; not held against the target',
  'not-covered': 'no test checked it in this run',
  untestable: 'cannot be observed from outside (reason given)',
};

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function duration(startedAt: string, endedAt: string): string {
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

function verdictNote(r: ConformanceReport): string {
  const s = r.summary;
  if (s.verdict === 'not-conformant') {
    const others = s.fail - s.mustFailed;
    return `${s.mustFailed} MUST or MUST NOT requirement${s.mustFailed === 1 ? '' : 's'} failed${others > 0 ? `, and ${others} SHOULD (strict)` : ''}`;
  }
  if (s.verdict === 'no-verdict')
    return `the kit broke on ${s.error} requirement${s.error === 1 ? '' : 's'} (a hook, the configuration or the run itself): nothing here counts for or against the target`;
  if (s.verdict === 'incomplete')
    return 'no failure, but not every MUST judged by this run passed (blocked, skipped, not covered or kit error)';
  return s.warn > 0 ? `every MUST passed; ${s.warn} warning${s.warn === 1 ? '' : 's'}` : 'every MUST passed';
}

function metaHtml(r: ConformanceReport): string {
  const targets = Object.entries(r.targets)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${esc(k)}: <code>${esc(v)}</code>`)
    .join('<br>');
  const p = r.profile;
  const profile = `vendor ${esc(p.vendor)} &middot; edition ${esc(p.edition)} &middot; paths ${esc(p.paths)} &middot; deviceAuth ${esc(p.deviceAuth)} &middot; desiredState ${esc(p.desiredState)} &middot; quantityFormat ${esc(p.quantityFormat)}`;
  const rows: [string, string][] = [
    ['Kit', `${esc(r.kit.name)} ${esc(r.kit.version)}`],
    ['Component', componentHtml(r.component)],
    [
      'Claims',
      r.claims
        ? `${esc(r.claims.join(', '))} <span class="muted">(every other area is skipped as not claimed)</span>`
        : '<span class="muted">every area of the persona</span>',
    ],
    ['Persona', `${esc(r.persona)} <span class="muted">&middot; edition ${esc(r.edition)}</span>`],
    [
      'Targets',
      (targets || '<span class="muted">not recorded (run without wfmck run)</span>') +
        (r.embedded ? ' <span class="muted">(embedded reference services)</span>' : ''),
    ],
    ['Profile', profile],
    ['Strictness', esc(r.strictness)],
    [
      'Seed',
      r.seed === null
        ? '<span class="muted">not recorded</span>'
        : `${esc(r.seed)}${r.runs !== null ? ` <span class="muted">(${esc(r.runs)} runs per property)</span>` : ''}`,
    ],
    ['Hooks', r.hooks.length > 0 ? esc(r.hooks.join(', ')) : '<span class="muted">none configured</span>'],
    ...(r.clientUnderTest ? [['Client under test', CLIENT_STARTERS[r.clientUnderTest]] as [string, string]] : []),
    [
      'Run',
      `${esc(r.startedAt)} &rarr; ${esc(r.endedAt)} <span class="muted">(${esc(duration(r.startedAt, r.endedAt))})</span>` +
        (r.interrupted ? ' <span class="interrupted">interrupted: results are partial</span>' : ''),
    ],
  ];
  rows.push(['Signature', signingHtml(r)]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

const CLIENT_STARTERS: Record<ClientStarter, string> = {
  kit: 'the kit\'s own simulated client <span class="muted">(a self-check of the kit: no hooks.startClient was configured)</span>',
  hook: 'started for each check by <code>hooks.startClient</code>',
  operator: 'started by hand for each check <span class="muted">(attended mode)</span>',
};

function componentHtml(c: ConformanceReport['component']): string {
  const parts = [c.vendor, c.name, c.version].filter((p): p is string => p !== undefined);
  return parts.length > 0
    ? esc(parts.join(' '))
    : '<span class="muted">not configured (component.vendor, component.name, component.version)</span>';
}

// This page is itself a signed subject, so it can only point at the envelope written after it, never quote its digest.
function signingHtml(r: ConformanceReport): string {
  if (!r.signing) return '<span class="muted">not signed (wfmck run --sign)</span>';
  return `signed: see <code>${esc(r.signing.envelope)}</code> beside this page; verify with <code>wfmck verify-report &lt;this folder&gt;</code>`;
}

function levelsHtml(s: ConformanceReport['summary']): string {
  const cols = ['pass', 'fail', 'warn', 'blocked', 'skip', 'error', 'notCovered', 'untestable'] as const;
  const head = `<tr><th>Level</th><th>total</th>${cols.map((c) => `<th>${c === 'notCovered' ? 'not covered' : c}</th>`).join('')}</tr>`;
  const body = LEVELS.filter((l) => s.byLevel[l].requirements > 0)
    .map((l) => {
      const c = s.byLevel[l];
      return `<tr><td>${esc(l)}</td><td>${c.requirements}</td>${cols.map((k) => `<td${c[k] === 0 ? ' class="zero"' : ''}>${c[k]}</td>`).join('')}</tr>`;
    })
    .join('');
  return `<table class="levels">${head}${body}</table>`;
}

function summaryHtml(r: ConformanceReport): string {
  const s = r.summary;
  // What the skips are, by cause: most skips of a run are another persona's or edition's, never skipped checks.
  const causes = Object.entries(s.skipCauses)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${n} ${skipCauseText(r, c as SkipCause)}`);
  const notes: Record<string, string> = causes.length > 0 ? { skip: causes.join(', ') } : {};
  const count = {
    pass: s.pass,
    fail: s.fail,
    warn: s.warn,
    blocked: s.blocked,
    skip: s.skip,
    error: s.error,
    'not-covered': s.notCovered,
    untestable: s.untestable,
  };
  const chip = (status: string, n: number) =>
    `<button type="button" class="chip st-${token(status)}" data-filter-status="${esc(status)}" title="${esc(STATUS_HELP[status] ?? '')}">` +
    `<b>${n}</b>${esc(status.replace('-', ' '))}${notes[status] ? `<small>${esc(notes[status])}</small>` : ''}</button>`;
  const chips = [
    `<button type="button" class="chip" data-filter-status=""><b>${s.requirements}</b>requirements</button>`,
    ...Object.entries(count)
      .filter(([st, n]) => n > 0 || st === 'fail' || st === 'pass')
      .map(([st, n]) => chip(st, n)),
    `<button type="button" class="chip must-failed" data-filter-status="fail" title="MUST and MUST NOT requirements that failed: the run's exit code"><b>${s.mustFailed}</b>MUST failed</button>`,
  ];
  return `<div class="summary">${chips.join('')}</div>`;
}

/** A skip cause as the chip names it; another persona's skips name those personas (never the run's own). */
function skipCauseText(r: ConformanceReport, cause: SkipCause): string {
  if (cause !== 'other-persona') return SKIP_CAUSE_TEXT[cause];
  const personas = [
    ...new Set(r.requirements.filter((q) => q.status === 'skip' && q.skipCause === 'other-persona').map((q) => personaOf(q.observer))),
  ];
  return `${SKIP_CAUSE_TEXT[cause]} (${personas.sort().join(', ')})`;
}

/** Persona device without a vendor's client: the page says, at the top, that it certifies nobody's client. */
function selfCheckHtml(r: ConformanceReport): string {
  if (r.clientUnderTest !== 'kit') return '';
  return (
    '<div class="selfcheck" id="selfcheck"><b>SELF-CHECK</b> the client under test is the kit\'s own simulated client: ' +
    'this report checks the kit, it is not a certificate of your client (configure hooks.startClient, or run --attend)</div>'
  );
}

function filtersHtml(sections: readonly [string, string | undefined][]): string {
  const opt = (value: string, label: string) => `<option value="${esc(value)}">${esc(label)}</option>`;
  const statuses = [opt('', 'all'), opt('not-pass', 'not passing'), ...REQUIREMENT_STATUSES.map((s) => opt(s, s))];
  const levels = [opt('', 'all'), ...LEVELS.map((l) => opt(l, l))];
  const secs = [opt('', 'all'), ...sections.map(([n, t]) => opt(n, `${n} ${t ?? ''}`.trim()))];
  const observers = [opt('', 'all'), ...OBSERVERS.map((o) => opt(o, o))];
  return (
    '<div class="filters" role="search">' +
    `<label>Status <select id="f-status">${statuses.join('')}</select></label>` +
    `<label>Level <select id="f-level">${levels.join('')}</select></label>` +
    `<label>Section <select id="f-section">${secs.join('')}</select></label>` +
    `<label>Observer <select id="f-observer">${observers.join('')}</select></label>` +
    '<label>Search <input id="f-text" type="search" placeholder="id, text, test title"></label>' +
    '<button type="button" id="f-reset">Reset</button><span class="shown" id="shown"></span></div>'
  );
}

/** The whole page. `sectionTitles` maps "2.1" to its heading in interfaces.md (and "P4" to profiles.md). */
export function renderHtml(report: ConformanceReport, sectionTitles: ReadonlyMap<string, string> = new Map()): string {
  const groups = new Map<string, RequirementResult[]>();
  for (const r of report.requirements) groups.set(r.section, [...(groups.get(r.section) ?? []), r]);
  const attention = report.requirements.filter((r) => ATTENTION.includes(r.status));
  const evidence = report.caFiles?.[0] !== undefined ? { cacert: report.caFiles[0] } : {};
  const sections = [...groups.keys()].map((n): [string, string | undefined] => [n, sectionTitles.get(n)]);
  const problems =
    report.problems.length > 0
      ? `<div class="problems"><b>Problems of the run itself (not findings):</b><ul>${report.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></div>`
      : '';
  const csp = `default-src 'none'; style-src 'sha256-${sha256(STYLE)}'; script-src 'sha256-${sha256(SCRIPT)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const verdict = report.summary.verdict;
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>WFM conformance: ${esc(VERDICT_TEXT[verdict])} (${esc(report.kit.name)} ${esc(report.kit.version)})</title>` +
    `<style>${STYLE}</style></head><body>` +
    `<header><h1>WFM conformance report <span class="verdict verdict-${token(verdict)}">${esc(VERDICT_TEXT[verdict])}</span>` +
    (report.clientUnderTest === 'kit'
      ? '<span class="verdict verdict-selfcheck" title="the client under test is the kit\'s own">self-check</span>'
      : '') +
    `<span class="verdict-note">${esc(verdictNote(report))} &middot; strictness ${esc(report.strictness)}</span></h1>` +
    selfCheckHtml(report) +
    `<div class="head-grid">${metaHtml(report)}${levelsHtml(report.summary)}</div></header>` +
    summaryHtml(report) +
    causesHtml(report) +
    problems +
    filtersHtml(sections) +
    `<main>${attentionHtml(attention, evidence)}` +
    `${sections
      .map(([n, t]) => [n, t, groups.get(n)!.filter((r) => !ATTENTION.includes(r.status))] as const)
      .filter(([, , rows]) => rows.length > 0)
      .map(([n, t, rows]) => sectionHtml(n, t, rows, evidence))
      .join('')}` +
    '<p id="none" class="muted" hidden>No requirement matches the filters.</p></main>' +
    '<footer>Requirements from spec/requirements.yaml (interfaces.md and the readings of profiles.md). ' +
    'Every string from the target is shown as text.</footer>' +
    `<script>${SCRIPT}</script></body></html>\n`
  );
}
