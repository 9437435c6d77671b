// Writing a run's report folder: conformance.json, conformance.html, junit.xml and evidence/<id>.json, from one
// ConformanceReport. The reporter writes it when Playwright ends; `wfmck run` writes it from the streamed records when
// Playwright could not (it was killed, or never started before a signal came).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadRequirements } from '../spec/requirements.ts';
import { readJsonLines } from '../run/contract/json-lines.ts';
import type { RunContext } from '../run/contract/context.ts';
import { buildReport, metaFromContext, type ConformanceReport } from './conformance-json.ts';
import { EVIDENCE_DIR, withEvidenceFiles } from './evidence-files.ts';
import { renderHtml } from './html/render.ts';
import { JUNIT_FILE, junitXml } from './junit.ts';
import type { TestRecord } from './matrix.ts';
import { parseSectionTitles } from './sections.ts';
import { OUTAGE_FILE, type DeclaredOutage } from './outage-declared.ts';
import { NODE_IO, ReportWriteError, makeFolder, reasonOf, writeFileAtomic, type WriteIo } from './safe-write.ts';

export const JSON_FILE = 'conformance.json';
export const HTML_FILE = 'conformance.html';
/** One TestRecord per line, appended as each test ends: what survives a runner that is killed. */
export const RECORDS_FILE = 'records.jsonl';

/** Headings of interfaces.md and profiles.md by section number, for the HTML's section titles. */
export function specSectionTitles(): Map<string, string> {
  const read = (name: string) => readFileSync(new URL(`../spec/source/${name}`, import.meta.url), 'utf8');
  return new Map([...parseSectionTitles(read('interfaces.md')), ...parseSectionTitles(read('profiles.md'))]);
}

/**
 * Each file is written whole or not at all (reports/safe-write.ts), conformance.json last: its presence says every
 * other file was written. A failed write throws a ReportWriteError naming the file and the reason (ENOSPC, EACCES).
 */
export function writeReportFiles(outDir: string, built: ConformanceReport, io: WriteIo = NODE_IO): ConformanceReport {
  const { report, files } = withEvidenceFiles(built);
  try {
    makeFolder(outDir, io);
    rmSync(join(outDir, JSON_FILE), { force: true });
    // A reused output folder must not keep evidence of an earlier run that the report no longer names.
    rmSync(join(outDir, EVIDENCE_DIR), { recursive: true, force: true });
    for (const f of files) makeFolder(dirname(join(outDir, f.path)), io);
  } catch (err) {
    throw new ReportWriteError((err as NodeJS.ErrnoException).path ?? outDir, reasonOf(err));
  }
  for (const f of files) writeFileAtomic(join(outDir, f.path), f.text, io);
  writeFileAtomic(join(outDir, HTML_FILE), renderHtml(report, specSectionTitles()), io);
  writeFileAtomic(join(outDir, JUNIT_FILE), junitXml(report), io);
  writeFileAtomic(join(outDir, JSON_FILE), `${JSON.stringify(report, null, 2)}\n`, io);
  return report;
}

/** The records streamed so far; a torn last line (the writer was killed mid-line) is left out. */
export function readRecords(outDir: string): TestRecord[] {
  return readJsonLines<TestRecord>(join(outDir, RECORDS_FILE));
}

/** The outage the watcher declared in this out folder (cli/outage-watch.ts), if any. */
export function readOutage(outDir: string): DeclaredOutage | undefined {
  try {
    return JSON.parse(readFileSync(join(outDir, OUTAGE_FILE), 'utf8')) as DeclaredOutage;
  } catch {
    return undefined;
  }
}

/**
 * The report of a run Playwright did not finish itself: every test that ended, from the records it streamed, the rest
 * not run; `interrupted: true`, and the reason among the problems.
 */
export function writeInterruptedReport(context: RunContext, why: string): ConformanceReport {
  const records = readRecords(context.outDir);
  const outage = readOutage(context.outDir);
  const report = buildReport({
    meta: metaFromContext(context),
    catalog: loadRequirements(),
    records,
    endedAt: new Date().toISOString(),
    interrupted: true,
    filtered: true,
    problems: [`the run was interrupted: ${why}; ${records.length} test${records.length === 1 ? '' : 's'} had ended`],
    ...(outage && { outage }),
  });
  return writeReportFiles(context.outDir, report);
}
