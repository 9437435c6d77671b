// A fault batch: the fault harness (`wfmck faults`) hands `wfmck run --fault-batch FILE` several faults at once, so one
// Playwright start-up and one worker serve them all. Each fault gets its own embedded default with it switched on, its
// own run context and report folder, and its own copy of the suites: a folder of one-line spec files (`<key>/...`) that
// each load a suite module again under the query `?<key>`, so the checks are declared once per fault, in one project,
// and a check knows its fault by its file (fixtures/wfmck.ts). Playwright gives each project a worker of its own, so a
// project per fault cost a worker start-up (~2.5 s CPU, most of a fault's run) per fault; each is judged exactly as if it
// had run alone.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One fault of the batch file: its id, its report folder, and the grep of its checks (absent: the whole suite). */
export interface FaultBatchEntry {
  fault: string;
  out: string;
  grep?: string;
  /** The suite files (under suites/) that hold its checks, from the harness's listing; absent: every file. */
  files?: string[];
}

/** A fault of a batch's Playwright run, as the batch's run context lists them (playwright.config.ts reads it). */
export interface BatchFault {
  /** The fault's id (the report names it). */
  fault: string;
  /** Its folder of suite copies under the batch's `specs` folder: the first segment of each of its files' paths. */
  key: string;
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
    const files = e.files;
    const fileList = Array.isArray(files) && files.every((f) => typeof f === 'string' && f.endsWith('.spec.ts') && !f.includes('..'));
    if (files !== undefined && !fileList) problems.push(`${where}: files must be a list of .spec.ts paths under suites/`);
    return {
      fault: String(e.fault),
      out: String(e.out),
      ...(typeof e.grep === 'string' && { grep: e.grep }),
      ...(fileList && { files: files as string[] }),
    };
  });
  if (problems.length) throw new Error(problems.join('\n'));
  return entries;
}

/** The key of the batch's i-th fault (0-based): its folder of suite copies. */
export function batchKey(i: number): string {
  return `f${String(i + 1).padStart(2, '0')}`;
}

/**
 * The batch project's grep: each fault's checks in its own files only. Playwright greps the title path joined by spaces,
 * its file first (relative to the test folder, so `<key>/...`), and a requirement grep matches an id after a space.
 */
export function batchGrep(faults: readonly Pick<BatchFault, 'key' | 'grep'>[]): string {
  return faults.map((f) => `(?:(?:^| )${f.key}/${f.grep === undefined ? '' : `.*${f.grep}`})`).join('|');
}

/** The batch key of a test from its title path's first entry, its file relative to the specs folder; undefined outside a batch. */
export function batchKeyOf(file: string | undefined): string | undefined {
  return /^(f\d{2,})[\\/]/.exec(file ?? '')?.[1];
}

/**
 * Writes `specs/<key>/<path>` for each fault and each of its spec files under `suites` (every one without a list): one
 * line that imports the suite again as a module of its own (`?<key>`), so its checks are declared in that file, for
 * that fault.
 */
export async function writeBatchSpecs(specs: string, suites: string, faults: readonly { key: string; files?: string[] }[]): Promise<void> {
  const all = (await readdir(suites, { recursive: true })).filter((f) => f.endsWith('.spec.ts'));
  await mkdir(specs, { recursive: true });
  // ES modules wherever the batch's folder is (a top-level await): Playwright would require() them otherwise.
  await writeFile(join(specs, 'package.json'), '{ "type": "module" }\n');
  for (const { key, files } of faults)
    for (const file of files?.filter((f) => all.includes(f)) ?? all) {
      const copy = join(specs, key, file);
      await mkdir(dirname(copy), { recursive: true });
      const url = `${pathToFileURL(join(suites, file)).href}?${key}`;
      await writeFile(
        copy,
        `// ${relative(specs, join(suites, file))}, for the batch's fault ${key}\nawait import(${JSON.stringify(url)});\n`,
      );
    }
}
