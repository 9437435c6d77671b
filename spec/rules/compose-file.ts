// §2.7 compose archive rules 2 (Compose Specification conformance), 3, 4, 5 and 6, judged on compose.yaml's text.
import { parseDocument } from 'yaml';
import { validateComposeSpec } from '../schemas/compose-spec.ts';
import { archiveFindings, composeFileEntry, pathsUnderTop, resolveFrom, segmentsOf, type TarEntry } from './compose-archive.ts';
import { finding, type Finding } from './finding.ts';

type Json = Record<string, unknown>;

/** A file reference in compose.yaml and what §2.7 demands of it. */
interface Reference {
  path: string;
  /** Where in compose.yaml, as a JSON pointer. */
  at: string;
  kind: 'env_file' | 'config' | 'secret' | 'bind' | 'other';
  /** `env_file` with `required: false` (Compose Specification): the file may be absent. */
  optional?: boolean;
}

/**
 * All rule 2-6 findings for one compose.yaml. `archiveFileNames` are entry paths relative to the top-level
 * directory (files and directories). Reading: a path holding a `${...}` interpolation cannot be resolved
 * before deployment and is not judged.
 */
export function composeFileFindings(composeYamlText: string, archiveFileNames: string[]): Finding[] {
  const doc = parseDocument(composeYamlText, { merge: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    return [finding('compose-yaml-parse', `§2.7 rule 2: compose.yaml is not valid YAML (${doc.errors[0]!.message.split('\n')[0]})`)];
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return [finding('compose-yaml-parse', `§2.7 rule 2: compose.yaml cannot be read (${(e as Error).message})`)];
  }
  const verdict = validateComposeSpec(value);
  const out = verdict.ok
    ? []
    : verdict.errors.map((e) => finding('compose-spec-conformance', `§2.7 rule 2: Compose Specification: ${e.message}`, e.path));
  const archive = new Set(archiveFileNames.map((n) => segmentsOf(n).join('/')));
  for (const ref of isObject(value) ? referencesOf(value) : []) {
    if (/\$(?!\$)/.test(ref.path)) continue;
    out.push(...judge(ref, archive));
  }
  return out;
}

function judge(ref: Reference, archive: ReadonlySet<string>): Finding[] {
  const resolved = resolveFrom([], ref.path);
  const inside = resolved !== undefined && resolved.length > 0 ? resolved.join('/') : undefined;
  const inArchive = resolved !== undefined && [...archive].some((p) => covers(resolved, p));
  switch (ref.kind) {
    case 'secret':
      return inArchive
        ? [finding('secret-file-absent', `§2.7 rule 6: the file of a file-source secret (${ref.path}) MUST NOT be in the archive`, ref.at)]
        : [];
    case 'bind':
      return inArchive
        ? [
            finding(
              'bind-mount-absent',
              `§2.7 rule 5: bind-mount path ${ref.path} is a runtime path and MUST NOT be in the archive`,
              ref.at,
            ),
          ]
        : [];
    default:
      if (inside === undefined)
        return [finding('ref-inside-top', `§2.7 rules 3-4: ${ref.path} does not resolve inside the top-level directory`, ref.at)];
      if (ref.kind === 'other' || ref.optional || archive.has(inside)) return [];
      return [
        ref.kind === 'env_file'
          ? finding('env-file-present', `§2.7 rule 4: env_file ${ref.path} MUST be in the archive`, ref.at)
          : finding('config-file-present', `§2.7 rule 4: the file of file-source config (${ref.path}) MUST be in the archive`, ref.at),
      ];
  }
}

/** True when archive path `p` is `resolved` or lies under it (a bind source may be a directory). */
function covers(resolved: string[], p: string): boolean {
  const prefix = resolved.join('/');
  return prefix === '' ? p !== '' : p === prefix || p.startsWith(`${prefix}/`);
}

function referencesOf(doc: Json): Reference[] {
  const refs: Reference[] = [];
  for (const [name, service] of entriesOf(doc.services)) {
    const at = `/services/${pointer(name)}`;
    refs.push(...envFileRefs(service.env_file, `${at}/env_file`));
    refs.push(...volumeRefs(service.volumes, `${at}/volumes`));
    const ext = service.extends;
    if (isObject(ext) && typeof ext.file === 'string') refs.push({ path: ext.file, at: `${at}/extends/file`, kind: 'other' });
  }
  for (const [name, config] of entriesOf(doc.configs)) {
    if (typeof config.file === 'string') refs.push({ path: config.file, at: `/configs/${pointer(name)}/file`, kind: 'config' });
  }
  for (const [name, secret] of entriesOf(doc.secrets)) {
    if (typeof secret.file === 'string') refs.push({ path: secret.file, at: `/secrets/${pointer(name)}/file`, kind: 'secret' });
  }
  for (const [i, item] of (Array.isArray(doc.include) ? doc.include : []).entries()) {
    const paths = typeof item === 'string' ? [item] : isObject(item) ? [item.path].flat() : [];
    for (const p of paths) if (typeof p === 'string') refs.push({ path: p, at: `/include/${i}`, kind: 'other' });
  }
  return refs;
}

/** `env_file`: a string, or a list of strings and `{path, required}` objects (Compose Specification). */
function envFileRefs(envFile: unknown, at: string): Reference[] {
  if (typeof envFile === 'string') return [{ path: envFile, at, kind: 'env_file' }];
  if (!Array.isArray(envFile)) return [];
  return envFile.flatMap((item, i): Reference[] => {
    if (typeof item === 'string') return [{ path: item, at: `${at}/${i}`, kind: 'env_file' }];
    if (!isObject(item) || typeof item.path !== 'string') return [];
    const optional = item.required === false || item.required === 'false';
    return [{ path: item.path, at: `${at}/${i}/path`, kind: 'env_file', optional }];
  });
}

/** Bind mounts: short syntax `SOURCE:TARGET[:MODE]` whose source is a path, or long syntax `type: bind`. */
function volumeRefs(volumes: unknown, at: string): Reference[] {
  if (!Array.isArray(volumes)) return [];
  return volumes.flatMap((v, i): Reference[] => {
    if (typeof v === 'string') {
      const parts = v.split(':');
      const source = parts[0]!;
      // Only relative paths can name archive content; a bare word is a named volume, `/x` and `~` are host paths.
      return parts.length > 1 && source.startsWith('.') ? [{ path: source, at: `${at}/${i}`, kind: 'bind' }] : [];
    }
    if (isObject(v) && v.type === 'bind' && typeof v.source === 'string')
      return [{ path: v.source, at: `${at}/${i}/source`, kind: 'bind' }];
    return [];
  });
}

function entriesOf(section: unknown): [string, Json][] {
  return isObject(section) ? Object.entries(section).filter((e): e is [string, Json] => isObject(e[1])) : [];
}

function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Archive rules and, when the archive has a readable compose.yaml, the compose file rules. Throws
 * WFMCK_E_ARCHIVE_CONTENT_NOT_KEPT when the reader dropped compose.yaml's bytes (a kit limit, not a finding).
 */
export function composeComponentFindings(entries: TarEntry[]): Finding[] {
  const findings = archiveFindings(entries);
  const compose = composeFileEntry(entries);
  if (!compose) return findings;
  if (!compose.content) {
    throw Object.assign(new Error(`compose.yaml (${compose.size} bytes) was not kept by the archive reader; raise maxFileBytesKept`), {
      code: 'WFMCK_E_ARCHIVE_CONTENT_NOT_KEPT',
    });
  }
  const text = new TextDecoder('utf-8').decode(compose.content);
  return [...findings, ...composeFileFindings(text, pathsUnderTop(entries))];
}
