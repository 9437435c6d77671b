// A fault batch: the fault harness (`wfmck faults`) hands `wfmck run --fault-batch FILE` several faults at once, so one
// Playwright start-up serves them all. Each fault gets its own embedded default with it switched on, its own run context
// and report folder, and its checks as one Playwright project: judged exactly as if it had run alone.

/** One fault of the batch file: its id, its report folder, and the grep of its checks (absent: the whole suite). */
export interface FaultBatchEntry {
  fault: string;
  out: string;
  grep?: string;
}

/** A project of a batch's Playwright run, as the batch's run context lists them (playwright.config.ts reads it). */
export interface BatchProject {
  /** The project's name, `fault:<id>` (batchProjectName). */
  name: string;
  /** The fault's own run context (its targets, hooks, outDir): the fixtures and its reporter read this one. */
  contextFile: string;
  outDir: string;
  grep?: string;
}

/** The entries of a batch file's text; throws one Error naming every problem. */
export function parseFaultBatch(text: string, origin: string): FaultBatchEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`${origin}: not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(doc) || doc.length === 0) throw new Error(`${origin}: must be a non-empty list of {fault, out, grep}`);
  const problems: string[] = [];
  const seen = { fault: new Set<string>(), out: new Set<string>() };
  const entries = doc.map((raw: unknown, i): FaultBatchEntry => {
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const where = `${origin} entry ${i + 1}`;
    for (const key of ['fault', 'out'] as const) {
      if (typeof e[key] !== 'string' || e[key] === '') problems.push(`${where}: ${key} must be a non-empty string`);
      else if (seen[key].has(e[key])) problems.push(`${where}: ${key} ${e[key]} is named twice`);
      else seen[key].add(e[key]);
    }
    if (e.grep !== undefined && typeof e.grep !== 'string') problems.push(`${where}: grep must be a string`);
    return { fault: String(e.fault), out: String(e.out), ...(typeof e.grep === 'string' && { grep: e.grep }) };
  });
  if (problems.length) throw new Error(problems.join('\n'));
  return entries;
}

/**
 * A fault's project name. Playwright greps the whole title path, project name included, and a requirement grep matches
 * an id at the start or after a space: `fault:` keeps the name from selecting every test of the project.
 */
export function batchProjectName(faultId: string): string {
  return `fault:${faultId}`;
}
