// Writing into a report folder so a full disk or a folder the kit may not write never leaves a torn file behind and is
// always named with its path: each file goes to a temporary file beside it, then a rename (atomic within one folder).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The file operations a write uses: a seam, so tests can make a write fail half-way as a full disk does. */
export interface WriteIo {
  writeFileSync(path: string, data: string | Uint8Array): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, opts: { force: true; recursive?: boolean }): void;
  mkdirSync(path: string, opts?: { recursive?: boolean }): unknown;
}

export const NODE_IO: WriteIo = { writeFileSync, renameSync, rmSync, mkdirSync };

/** A file of the report folder that could not be written: its path and the system's reason (ENOSPC, EACCES, ...). */
export class ReportWriteError extends Error {
  readonly code = 'WFMCK_E_WRITE';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot write ${path}: ${reason}`);
  }
}

/** "ENOSPC: no space left on device" from a Node error (its message also names a call and, at times, a temp path). */
export function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const text = (e?.message ?? String(err)).split(',')[0]!.trim();
  return e?.code && !text.startsWith(e.code) ? `${e.code}: ${text}` : text;
}

/** mkdir -p that tells the real reason: Node's recursive mkdir says ENOENT on a read-only file system (EROFS). */
export function makeFolder(dir: string, io: WriteIo = NODE_IO): void {
  try {
    io.mkdirSync(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const parent = dirname(dir);
    if (parent !== dir && !existsSync(parent)) makeFolder(parent, io);
    io.mkdirSync(dir);
  }
}

/** Writes `path` whole or not at all: the old file, if any, stays until the new one is complete. */
export function writeFileAtomic(path: string, data: string | Uint8Array, io: WriteIo = NODE_IO): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    io.writeFileSync(tmp, data);
    io.renameSync(tmp, path);
  } catch (err) {
    try {
      io.rmSync(tmp, { force: true });
    } catch {
      // The temp file cannot be removed either; the error that matters is the write's.
    }
    throw new ReportWriteError(path, reasonOf(err));
  }
}

/** Room a folder must have for a run's reports, roughly: a full run's HTML and evidence are about this size. */
export const PROBE_BYTES = 1024 * 1024;

/**
 * Why the kit could not write its reports into `dir`, or undefined when it can: the folder is made and a file of
 * PROBE_BYTES written, then both removed (the probe leaves no trace), so a folder that is read-only, under a regular
 * file or on a full disk is named before the run (and again after it, to say why a report is missing).
 */
export function folderWriteProblem(dir: string, io: WriteIo = NODE_IO): string | undefined {
  let made = resolve(dir);
  while (!existsSync(dirname(made)) && dirname(made) !== made) made = dirname(made);
  if (existsSync(made)) made = '';
  try {
    makeFolder(dir, io);
  } catch (err) {
    return `${dir}: cannot create the folder (${reasonOf(err)})`;
  }
  const probe = join(dir, `.wfmck-write-probe-${process.pid}`);
  try {
    io.writeFileSync(probe, Buffer.alloc(PROBE_BYTES));
    return undefined;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOSPC' || e.code === 'EDQUOT' ? `, which needs about ${PROBE_BYTES / 1024 / 1024} MiB free` : '';
    return `${dir}: cannot write the reports there (${reasonOf(err)})${why}`;
  } finally {
    try {
      io.rmSync(probe, { force: true });
      if (made) io.rmSync(made, { force: true, recursive: true });
    } catch {
      // Nothing was written, or a folder we may not write: nothing to clean.
    }
  }
}
