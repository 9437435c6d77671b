// spec/coverage.txt: each requirement of the catalog with the suite tests that check it and the faults that prove
// those checks can fail, one line each, so a change of coverage is a line of a diff someone reviews. Pure.
import type { Requirement } from '../spec/requirements.ts';
import type { FaultEntry } from '../faults/catalog.ts';

/** A suite test as Playwright lists it: its file under suites/, its title, the requirement ids of its `req` details. */
export interface CoverageTest {
  file: string;
  title: string;
  requirements: readonly string[];
}

export interface CoverageInput {
  requirements: readonly Requirement[];
  tests: readonly CoverageTest[];
  faults: readonly FaultEntry[];
}

export const COVERAGE_FILE = 'spec/coverage.txt';

/**
 * The persona whose run holds a test: suites/device is the device persona's, every other suite the wfm persona's
 * (run/contract/personas.ts). A fault is judged in one persona (a client fault by device), so only that persona's
 * tests can show it.
 */
function testPersona(t: CoverageTest): 'device' | 'wfm' {
  return t.file.startsWith('device/') ? 'device' : 'wfm';
}

function faultPersona(f: FaultEntry): 'device' | 'wfm' {
  return f.service === 'client' ? 'device' : 'wfm';
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Where it runs, when not the default: `(miaf)`, `(device)`, `(miaf, device)`. */
function faultLabel(f: FaultEntry): string {
  const where = [...(f.edition && f.edition !== 'seed' ? [f.edition] : []), ...(faultPersona(f) === 'device' ? ['device'] : [])];
  return where.length > 0 ? `${f.id} (${where.join(', ')})` : f.id;
}

/** Why a requirement has no test when that is by design: nobody outside can observe it, or the device hides it. */
function noTestReason(r: Requirement): string {
  if (r.observer === 'untestable') return ' (untestable)';
  if (r.unseen !== undefined) return ' (unseen by the device persona)';
  return '';
}

interface Row {
  requirement: Requirement;
  tests: CoverageTest[];
  /** Faults whose `breaks` name it and that run where one of its tests does: the harness's proof. */
  proving: FaultEntry[];
  /** Faults whose `breaks` name it with no test of it in their persona: nothing can fail, nothing is proven. */
  idle: FaultEntry[];
}

function rowOf(r: Requirement, tests: readonly CoverageTest[], faults: readonly FaultEntry[]): Row {
  const mine = tests.filter((t) => t.requirements.includes(r.id));
  const breaking = faults.filter((f) => f.breaks.includes(r.id));
  const proving = breaking.filter((f) => mine.some((t) => testPersona(t) === faultPersona(f)));
  return { requirement: r, tests: mine, proving, idle: breaking.filter((f) => !proving.includes(f)) };
}

function lineOf({ requirement: r, tests, proving, idle }: Row): string {
  const head = [
    r.id,
    `§${r.section}`,
    r.level.replace(' ', '-'),
    r.observer,
    ...(r.editions.length === 1 ? [`${r.editions[0]}-only`] : []),
  ];
  const testText = tests.length === 0 ? `none${noTestReason(r)}` : tests.map((t) => `${t.file}: ${t.title}`).join(' | ');
  const faultText = [
    proving.length === 0 ? 'none' : proving.map(faultLabel).join(', '),
    ...(idle.length > 0 ? [`(breaks it, no test of its persona: ${idle.map(faultLabel).join(', ')})`] : []),
  ].join(' ');
  return `${head.join(' ')}  tests: ${testText}  faults: ${faultText}`;
}

/** The whole file: a header with the counts, then one line per requirement in id order, tests and faults sorted. */
export function coverageText(input: CoverageInput): string {
  const tests = [...input.tests].sort((a, b) => byText(a.file, b.file) || byText(a.title, b.title));
  const faults = [...input.faults].sort((a, b) => byText(a.id, b.id));
  const rows = [...input.requirements].sort((a, b) => byText(a.id, b.id)).map((r) => rowOf(r, tests, faults));
  const checked = rows.filter((row) => row.tests.length > 0);
  const unproven = checked.filter((row) => row.proving.length === 0).length;
  const gaps = rows.filter((row) => row.tests.length === 0 && noTestReason(row.requirement) === '').length;
  return (
    [
      `# ${COVERAGE_FILE}: each requirement of spec/requirements.yaml, the suite tests that check it (<file under suites/>:`,
      '# <title>) and the faults of faults/catalog.yaml that prove those checks fail (a client fault in the device persona,',
      '# a fault of edition miaf in that edition). Generated: `wfmck coverage --write`; test/reports/coverage.test.ts fails',
      '# when it is stale. `tests: none` is a requirement no test checks; `faults: none` a check no fault has shown to fail.',
      `# ${rows.length} requirements: ${checked.length} checked (${unproven} with no fault to prove them), ${rows.length - checked.length} ` +
        `not (${gaps} of them neither untestable nor unseen).`,
      ...rows.map(lineOf),
    ].join('\n') + '\n'
  );
}

/**
 * What changed between the committed file and a fresh one: per requirement (a line each; `#` for the header) its old
 * line `- ...` then its new one `+ ...`, in the order they first appear. Empty when the two agree.
 */
export function coverageDiff(committed: string, fresh: string): string[] {
  const before = committed.split('\n').filter(Boolean);
  const after = fresh.split('\n').filter(Boolean);
  const removed = before.filter((l) => !after.includes(l));
  const added = after.filter((l) => !before.includes(l));
  const keyOf = (line: string) => line.split(' ')[0]!;
  const keys = [...new Set([...removed, ...added].map(keyOf))];
  return keys.flatMap((k) => [
    ...removed.filter((l) => keyOf(l) === k).map((l) => `- ${l}`),
    ...added.filter((l) => keyOf(l) === k).map((l) => `+ ${l}`),
  ]);
}
