// Evidence as files beside conformance.json: one evidence/<id>.json per requirement with evidence, named in the report,
// so a signed run can digest each file and a vendor can hand one finding's exchanges to whoever must fix it.
import type { ConformanceReport } from './conformance-json.ts';

export const EVIDENCE_DIR = 'evidence';

export interface EvidenceFile {
  /** Relative to the output folder, with forward slashes (as the report and the signature name it). */
  path: string;
  text: string;
}

/** The report with `evidenceFile` set on every requirement that has evidence, and the files to write. Pure. */
export function withEvidenceFiles(report: ConformanceReport): { report: ConformanceReport; files: EvidenceFile[] } {
  const files: EvidenceFile[] = [];
  const requirements = report.requirements.map((r) => {
    if (!r.evidence?.length) return r;
    // Catalog ids are [A-Z0-9-]; anything else is replaced so a file name never leaves the folder.
    const path = `${EVIDENCE_DIR}/${r.id.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
    files.push({ path, text: `${JSON.stringify({ requirement: r.id, exchanges: r.evidence }, null, 2)}\n` });
    return { ...r, evidenceFile: path };
  });
  return { report: { ...report, requirements }, files };
}

/** The evidence files a report names (what `wfmck verify-report` expects among the signed subjects). */
export function listedEvidenceFiles(report: { requirements?: unknown }): string[] {
  if (!Array.isArray(report.requirements)) return [];
  return report.requirements.flatMap((r: { evidenceFile?: unknown }) => (typeof r?.evidenceFile === 'string' ? [r.evidenceFile] : []));
}
