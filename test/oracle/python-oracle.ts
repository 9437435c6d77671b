// Runs fixtures/oracle/tarfile_verdict.py once for a batch of archives: JSON list of paths in, verdicts out.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface PythonMember {
  name: string;
  type: string;
  linkname: string;
  mode: number;
}

export interface PythonVerdict {
  path: string;
  readable: boolean;
  readError?: string;
  members: PythonMember[];
  /** Members tarfile.data_filter refused, with the FilterError subclass that names why. */
  refusals: { member: string; reason: string }[];
  /** Extraction failures that are not refusals (a hard link to a missing file, a name taken by a directory). */
  errors: { member: string; error: string }[];
}

const SCRIPT = fileURLToPath(new URL('../../fixtures/oracle/tarfile_verdict.py', import.meta.url));

export function pythonVerdicts(paths: string[]): PythonVerdict[] {
  const run = spawnSync('python3', [SCRIPT], { input: JSON.stringify(paths), maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`tarfile_verdict.py exited ${run.status}: ${run.stderr}`);
  const verdicts = JSON.parse(run.stdout) as PythonVerdict[];
  if (verdicts.length !== paths.length)
    throw new Error(`tarfile_verdict.py answered ${verdicts.length} verdicts for ${paths.length} archives`);
  return verdicts;
}

/** tarfile refuses the archive: it cannot read it, or the data filter refused a member. */
export function pythonRejects(v: PythonVerdict): boolean {
  return !v.readable || v.refusals.length > 0;
}

/** Where the archives of a batch are written: a memory file system when there is one. */
export function scratchDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}
