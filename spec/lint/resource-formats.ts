// §2.7 resource layers `application/vnd.<vendor>.app.<kind>.v1+<file_format>`: the formats the kit knows per kind.
import type { ResourceKind } from '../media-types.ts';

/**
 * Kit reading (§2.7 leaves `<file_format>` open), shared with `wfmck publish`: the file's extension in lower case,
 * `jpg` written `jpeg`. A pushed package may also use the spelled-out tokens seen in the wild (`markdown`, `plain`).
 */
const IMAGE = ['png', 'jpeg', 'gif', 'svg', 'webp', 'ico'];
const DOCUMENT = ['md', 'markdown', 'txt', 'plain', 'html', 'pdf', 'rst', 'adoc'];
export const KNOWN_FORMATS: Readonly<Record<ResourceKind, readonly string[]>> = {
  icon: IMAGE,
  releaseNotes: DOCUMENT,
  descriptionFile: DOCUMENT,
  licenseFile: DOCUMENT,
};
const ALIASES: Readonly<Record<string, readonly string[]>> = { md: ['markdown'], txt: ['plain'], jpeg: ['jpg'], html: ['htm'] };

/** The file format a path's extension names (`icon.PNG` -> `png`, `a.jpg` -> `jpeg`), or undefined without one. */
export function fileFormatOf(path: string): string | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(path.split('/').pop() ?? '');
  if (!m) return undefined;
  const ext = m[1]!.toLowerCase();
  return ext === 'jpg' ? 'jpeg' : ext === 'htm' ? 'html' : ext;
}

/** Whether a resource of `kind` at `path` has a format the kit knows; the reason when not. */
export function knownFormat(kind: ResourceKind, path: string): { ok: true; format: string } | { ok: false; reason: string } {
  const format = fileFormatOf(path);
  if (format === undefined) return { ok: false, reason: `${path} has no file extension to name its format` };
  if (!KNOWN_FORMATS[kind].includes(format))
    return {
      ok: false,
      reason: `${path}: format ${JSON.stringify(format)} is not one the kit knows for ${kind} (${KNOWN_FORMATS[kind].join(', ')})`,
    };
  return { ok: true, format };
}

/** A layer's `+<file_format>` matches the file its title names (`md` also as `markdown`, `txt` as `plain`). */
export function formatMatches(mediaTypeFormat: string, path: string): boolean {
  const format = fileFormatOf(path);
  if (format === undefined) return false;
  return mediaTypeFormat === format || (ALIASES[format] ?? []).includes(mediaTypeFormat);
}
