// Writing a run's report folder: conformance.json, conformance.html, junit.xml and evidence/<id>.json, from one
// ConformanceReport. The reporter writes it when Playwright ends; `wfmck run` writes it from the streamed records when
// Playwright could not (it was killed, or never started before a signal came).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadRequirements } from '../spec/requirements.ts';
import type { RunContext } from '../run/context.ts';
import { buildReport, metaFromContext, type ConformanceReport } from './conformance-json.ts';
import { EVIDENCE_DIR, withEvidenceFiles } from './evidence-files.ts';
import { renderHtml } from './html/render.ts';
import { JUNIT_FILE, junitXml } from './junit.ts';
import type { TestRecord } from './matrix.ts';
import { parseSectionTitles } from './sections.ts';

export const JSON_FILE = 'conformance.json';
export const HTML_FILE = 'conformance.html';
/** One TestRecord per line, appended as each test ends: what survives a runner that is killed. */
export const RECORDS_FILE = 'records.jsonl';

/** Headings of interfaces.md and profiles.md by section number, for the HTML's section titles. */
export function specSectionTitles(): Map<string, string> {
  const read = (name: string) => readFileSync(new URL(`../spec/source/${name}`, import.meta.url), 'utf8');
  return new Map([...parseSectionTitles(read('interfaces.md')), ...parseSectionTitles(read('profiles.md'))]);
}

export function writeReportFiles(outDir: string, built: ConformanceReport): ConformanceReport {
  const { report, files } = withEvidenceFiles(built);
  mkdirSync(outDir, { recursive: true });
  // A reused output folder must not keep evidence of an earlier run that the report no longer names.
  rmSync(join(outDir, EVIDENCE_DIR), { recursive: true, force: true });
  for (const f of files) {
    mkdirSync(dirname(join(outDir, f.path)), { recursive: true });
    writeFileSync(join(outDir, f.path), f.text);
  }
  writeFileSync(join(outDir, JSON_FILE), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, HTML_FILE), renderHtml(report, specSectionTitles()));
  writeFileSync(join(outDir, JUNIT_FILE), junitXml(report));
  return report;
}

/** The records streamed so far; a torn last line (the writer was killed mid-line) is left out. */
export function readRecords(outDir: string): TestRecord[] {
  const file = join(outDir, RECORDS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as TestRecord] : [];
      } catch {
        return [];
      }
    });
}

/**
 * The report of a run Playwright did not finish itself: every test that ended, from the records it streamed, the rest
 * not run; `interrupted: true`, and the reason among the problems.
 */
export function writeInterruptedReport(context: RunContext, why: string): ConformanceReport {
  const records = readRecords(context.outDir);
  const report = buildReport({
    meta: metaFromContext(context),
    catalog: loadRequirements(),
    records,
    endedAt: new Date().toISOString(),
    interrupted: true,
    filtered: true,
    problems: [`the run was interrupted: ${why}; ${records.length} test${records.length === 1 ? '' : 's'} had ended`],
  });
  return writeReportFiles(context.outDir, report);
}
