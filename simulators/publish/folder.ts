// Reading a package folder without ever leaving it: paths that climb out, absolute paths and symlinks that point
// outside are refused, so nothing outside the folder the developer named can end up in a published artifact.
import { lstat, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { hasDotDot, isAbsolutePath } from '../../spec/rules/compose-archive.ts';
import { PublishError } from './artifact.ts';

export interface FolderEntry {
  /** POSIX path relative to the folder, e.g. `config/site.conf`. */
  path: string;
  type: 'file' | 'directory' | 'symlink';
  /** A symlink's target exactly as stored (relative, resolving inside the folder). */
  linkname?: string;
}

const refuse = (message: string): PublishError => new PublishError('WFMCK_E_PUBLISH_FOLDER', message);

/** The bytes of `ref` (a path as written in a description or compose file), which must be a regular file inside `root`. */
export async function readInside(root: string, ref: string): Promise<{ path: string; bytes: Uint8Array }> {
  const path = normalise(ref);
  const full = join(root, ...path.split('/'));
  const real = await realpath(full).catch(() => {
    throw refuse(`${ref}: no such file in ${root}`);
  });
  if (!within(await realpath(root), real)) throw refuse(`${ref} resolves outside ${root} (through a symlink)`);
  const stat = await lstat(real);
  if (!stat.isFile()) throw refuse(`${ref} is not a regular file`);
  return { path, bytes: new Uint8Array(await readFile(real)) };
}

/** `ref` as a clean relative POSIX path; absolute paths and `..` segments are refused. */
export function normalise(ref: string): string {
  if (isAbsolutePath(ref) || isAbsolute(ref)) throw refuse(`${ref}: absolute paths are not allowed in a package`);
  if (hasDotDot(ref)) throw refuse(`${ref}: paths with .. are not allowed in a package`);
  const path = ref
    .split(/[/\\]/)
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  if (path === '') throw refuse(`"${ref}" names no file`);
  return path;
}

/** Every entry under `root`, sorted by path (code-unit order), symlinks kept as links and never followed. */
export async function walk(root: string): Promise<FolderEntry[]> {
  const realRoot = await realpath(root).catch(() => {
    throw refuse(`${root}: no such folder`);
  });
  if (!(await lstat(realRoot)).isDirectory()) throw refuse(`${root} is not a folder`);
  const out: FolderEntry[] = [];
  await walkInto(realRoot, realRoot, '', out);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function walkInto(realRoot: string, dir: string, prefix: string, out: FolderEntry[]): Promise<void> {
  for (const name of await readdir(dir)) {
    const full = join(dir, name);
    const path = prefix ? `${prefix}/${name}` : name;
    if (name.includes('\\')) throw refuse(`${path}: a backslash in a file name reads as a separator on Windows extractors`);
    const stat = await lstat(full);
    if (stat.isSymbolicLink()) {
      out.push({ path, type: 'symlink', linkname: await checkedLink(realRoot, full, path) });
    } else if (stat.isDirectory()) {
      out.push({ path, type: 'directory' });
      await walkInto(realRoot, full, path, out);
    } else if (stat.isFile()) {
      out.push({ path, type: 'file' });
    } else {
      throw refuse(`${path}: only regular files, folders and symlinks can be packed (§2.7 rule 7)`);
    }
  }
}

/** §2.7 rule 7: a symlink must stay inside the top-level directory, so its target must be relative and resolve inside. */
async function checkedLink(realRoot: string, full: string, path: string): Promise<string> {
  const target = await readlink(full);
  if (isAbsolutePath(target) || isAbsolute(target))
    throw refuse(`${path} is a symlink to the absolute path ${target}; only relative links inside the folder are packed`);
  const resolved = await realpath(full).catch(() => undefined);
  if (resolved === undefined) throw refuse(`${path} is a dangling symlink (${target})`);
  if (!within(realRoot, resolved)) throw refuse(`${path} is a symlink that points outside the folder (${target})`);
  return target.split(sep).join('/');
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
