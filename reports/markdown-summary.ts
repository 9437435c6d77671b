// A run as Markdown for a CI job summary ($GITHUB_STEP_SUMMARY, a GitLab job page): the verdict line, what was judged,
// the counts by outcome and level, each failure cause once, the causes that leave no verdict named as such (a kit
// error, a target gone dark, a problem of the run), and the replay command. Pure: the report in, text out. The words
// are the console's (reports/console.ts), so the summary and the run's last line never disagree.
import type { ConformanceReport } from './conformance-json.ts';
import type { Counts, RequirementResult, RootCause } from './matrix.ts';
import type { Level } from '../spec/requirements.ts';
import { verdictWords } from './console.ts';
import { failuresOf, listedCauses, replayOf } from './causes.ts';
import { kitErrorCauses, kitErrorHeadline } from './kit-error-causes.ts';
import { outageHeadline, stoppedLine } from './outage-declared.ts';
import { clipWords, terminalSafe } from './terminal.ts';

export interface MarkdownOptions {
  /** The report folder as the reader names it (the replay command's --config is in it); default `<report folder>`. */
  dir?: string;
}

type Badge = 'conformant' | 'not-conformant' | 'incomplete' | 'no-verdict';
const BADGES: Record<Badge, string> = { conformant: '✅', 'not-conformant': '❌', incomplete: '🟡', 'no-verdict': '⛔' };
const MAX_REASON = 200;
const MAX_PROBLEMS = 5;

type Report = Pick<ConformanceReport, 'summary' | 'requirements' | 'rootCauses' | 'problems' | 'interrupted'> & Partial<ConformanceReport>;

/** The verdict as the exit code of `wfmck run` reads it (cli/run.ts verdict): a stopped outage or a run problem first. */
export function gateVerdict(report: Report): { badge: Badge; words: string } {
  const stopped = (report.outages ?? []).find((o) => o.stopped);
  if (stopped) return { badge: 'no-verdict', words: `NO VERDICT: ${stoppedLine(stopped)}` };
  const s = report.summary;
  if (report.problems.length > 0 && s.error === 0)
    return { badge: 'no-verdict', words: `NO VERDICT: a problem of the run itself (${report.problems.length})` };
  const words = verdictWords(s);
  if (words.startsWith('NO VERDICT')) return { badge: 'no-verdict', words };
  return { badge: s.fail > 0 || s.mustFailed > 0 ? 'not-conformant' : s.verdict === 'conformant' ? 'conformant' : 'incomplete', words };
}

/** Text from a report (a target's words among it) as inline Markdown: one line, no markup, no HTML. */
export function mdText(text: string): string {
  return (
    terminalSafe(text.replace(/\s+/g, ' ').trim())
      // Intraword underscores, `#` mid-line and `~` stay: GFM reads no markup in them; the rest would be markup.
      .replace(/[\\`*[\]|]/g, '\\$&')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}

/** A code span that no backtick inside can close early. */
function code(text: string): string {
  const run = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return `${fence}${run > 0 ? ` ${text} ` : text}${fence}`;
}

function fenced(text: string): string[] {
  const run = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return [`${fence}sh`, text, fence];
}

const shellWord = (s: string) => (/^[A-Za-z0-9_@%+=:,./<>-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function contextLine(r: Report): string {
  const parts = [`**edition** ${mdText(r.edition ?? '?')}`, `**persona** ${mdText(r.persona ?? '?')}`];
  const targets = Object.entries(r.targets ?? {})
    .filter(([k, v]) => ['wfm', 'identity', 'registry'].includes(k) && typeof v === 'string')
    .map(([k, v]) => `${k} ${code(String(v))}`);
  parts.push(`**target** ${r.embedded ? 'the embedded reference services' : targets.join(', ') || 'none named'}`);
  const c = r.component;
  if (c && (c.vendor || c.name || c.version))
    parts.push(`**component** ${mdText([c.vendor, c.name, c.version].filter(Boolean).join(' '))}`);
  if (r.clientUnderTest) parts.push(`**client** ${mdText(r.clientUnderTest)}`);
  if (r.strictness) parts.push(`**strictness** ${mdText(r.strictness)}`);
  if (r.seed !== undefined && r.seed !== null) parts.push(`**seed** ${r.seed}`);
  if (r.kit) parts.push(`${mdText(r.kit.name)} ${mdText(r.kit.version)}`);
  return parts.join(' · ');
}

const ROWS: [keyof Counts, string][] = [
  ['pass', 'pass'],
  ['fail', 'fail'],
  ['warn', 'warn'],
  ['blocked', 'blocked'],
  ['skip', 'skip'],
  ['untestable', 'untestable'],
  ['notCovered', 'not covered'],
  ['error', 'kit error'],
];
const LEVELS: [string, Level[]][] = [
  ['MUST', ['MUST', 'MUST NOT']],
  ['SHOULD', ['SHOULD', 'SHOULD NOT']],
  ['MAY', ['MAY']],
];

function countsTable(r: Report): string[] {
  const s = r.summary;
  const byLevel = (levels: Level[], key: keyof Counts) => levels.reduce((n, l) => n + (s.byLevel?.[l]?.[key] ?? 0), 0);
  const lines = [
    `| outcome | requirements | ${LEVELS.map(([name]) => name).join(' | ')} |`,
    `|---|--:|${LEVELS.map(() => '--:').join('|')}|`,
    ...ROWS.map(([key, name]) => `| ${name} | ${s[key]} | ${LEVELS.map(([, ls]) => byLevel(ls, key)).join(' | ')} |`),
    `| **all** | **${s.requirements}** | ${LEVELS.map(([, ls]) => ls.reduce((n, l) => n + (s.byLevel?.[l]?.requirements ?? 0), 0)).join(' | ')} |`,
  ];
  const skips = Object.entries(s.skipCauses ?? {}).filter(([, n]) => n > 0);
  const tail = [`${s.judged} judged`, ...(skips.length > 0 ? [`skipped: ${skips.map(([k, n]) => `${k} ${n}`).join(', ')}`] : [])];
  return [...lines, '', tail.join('; ')];
}

/** The one line a cause is known by: its first failed check's reason, else the requirement's. */
function oneLine(r: RequirementResult): string {
  const reason = r.tests.find((t) => t.status === 'fail' && t.reason)?.reason ?? r.reason ?? r.text;
  return mdText(clipWords(reason.replace(/\s+/g, ' '), MAX_REASON));
}

interface CauseRow {
  id: string;
  level: string;
  why: string;
  blocked: number;
  replay?: string;
}

function causeRows(r: Report): CauseRow[] {
  const byId = new Map(r.requirements.map((q) => [q.id, q]));
  const dark = new Set((r.outages ?? []).flatMap((o) => o.requirements));
  return listedCauses(r).flatMap((c: RootCause): CauseRow[] => {
    const [first, ...also] = failuresOf(c, byId, dark);
    if (first !== undefined) {
      const alsoText = also.length > 0 ? ` (the same exchange failed ${also.map((q) => code(q.id)).join(', ')} too)` : '';
      const verb = first.status === 'fail' ? 'failed' : 'warned';
      return [
        {
          id: first.id,
          level: first.level,
          why: `${verb}: ${oneLine(first)}${alsoText}`,
          blocked: c.blocks.length,
          replay: replayOf(first),
        },
      ];
    }
    if (c.blocks.length === 0) return [];
    const why =
      c.status === 'not-run'
        ? 'was not run in this run'
        : `is ${c.status} in its own check (the target answered it and the setup differently)`;
    return [{ id: c.id, level: c.level ?? '', why: `blocked others, and ${why}`, blocked: c.blocks.length }];
  });
}

function causesSection(r: Report): string[] {
  const rows = causeRows(r);
  const outages = (r.outages ?? []).filter((o) => !o.stopped);
  if (rows.length === 0 && outages.length === 0) return [];
  const lines = ['### Failures by cause', ''];
  for (const o of outages) lines.push(`- a target went dark: ${mdText(outageHeadline(o))}`, '');
  if (rows.length > 0) {
    lines.push('| requirement | level | why | blocked |', '|---|---|---|--:|');
    for (const row of rows) lines.push(`| ${code(row.id)} | ${mdText(row.level)} | ${row.why} | ${row.blocked} |`);
    const replays = rows.filter((row) => row.replay !== undefined);
    if (replays.length > 0) {
      lines.push('', 'Replay one cause (with the report folder where its --config names it):', '');
      for (const row of replays) lines.push(`- ${code(row.id)}: ${code(terminalSafe(row.replay!))}`);
    }
  }
  return [...lines, ''];
}

function noVerdictSection(r: Report): string[] {
  const items: string[] = [];
  for (const o of (r.outages ?? []).filter((x) => x.stopped)) items.push(`- target outage, the run stopped: ${mdText(outageHeadline(o))}`);
  for (const c of kitErrorCauses(r.requirements))
    items.push(
      `- kit error, not the target's: ${mdText(kitErrorHeadline(c))} (requirements without a verdict: ${c.requirements.map(code).join(', ')})`,
    );
  for (const p of r.problems.slice(0, MAX_PROBLEMS)) items.push(`- problem of the run itself: ${mdText(clipWords(p, MAX_REASON))}`);
  if (r.problems.length > MAX_PROBLEMS) items.push(`- and ${plural(r.problems.length - MAX_PROBLEMS, 'more problem')} in conformance.json`);
  if (items.length === 0) return [];
  return ['### No verdict: causes that are not findings against the target', '', ...items, ''];
}

function replaySection(r: Report, dir: string): string[] {
  const seed = r.seed !== undefined && r.seed !== null ? ` --seed ${r.seed}` : '';
  return [
    '### Replay',
    '',
    'The whole run again, with its resolved configuration (add the `--grep` it ran with, if any):',
    '',
    ...fenced(`npx wfmck run --config ${shellWord(`${dir}/replay.yaml`)}${seed}`),
    '',
    `The full matrix, with each failure's requests and responses: ${code(`${dir}/conformance.html`)}.`,
  ];
}

export function markdownSummary(report: Report, options: MarkdownOptions = {}): string {
  const { badge, words } = gateVerdict(report);
  const interrupted = report.interrupted ? ' (interrupted: partial)' : '';
  const lines = [
    `## ${BADGES[badge]} wfmck: ${mdText(words)}${interrupted}`,
    '',
    contextLine(report),
    '',
    ...countsTable(report),
    '',
    ...causesSection(report),
    ...noVerdictSection(report),
    ...replaySection(report, options.dir ?? '<report folder>'),
  ];
  return `${lines.join('\n')}\n`;
}
