// A compose folder as the §2.7 compose archive (deterministic .tar.gz) and as a one-layer compose component artifact.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseDocument } from 'yaml';
import { mediaTypes } from '../../spec/media-types.ts';
import { COMPOSE_FILE, INVALID_COMPOSE_NAMES, resolveFrom } from '../../spec/rules/compose-archive.ts';
import { composeComponentFindings, composeFileFindings } from '../../spec/rules/compose-file.ts';
import { readTarGz } from '../../spec/rules/tar-read.ts';
import { OCI_TAG_PATTERN, SEMVER_PATTERN } from '../../spec/schemas/common.ts';
import { blobOf, buildManifest, PublishError, type BuiltArtifact } from './artifact.ts';
import { packTarGz, type PackEntry } from './deterministic-tar.ts';
import { readInside, walk, type FolderEntry } from './folder.ts';

export interface ComposeArchive {
  bytes: Uint8Array;
  /** The single top-level directory: the component name. */
  name: string;
  /** Folder paths packed, relative to the folder. */
  packed: string[];
  /** Folder paths left out, and the §2.7 rule that keeps them out. */
  excluded: { path: string; reason: string }[];
}

/** Rules whose findings name files that must stay out of the archive; the builder leaves them out instead. */
const EXCLUDING_RULES: Record<string, string> = {
  'secret-file-absent': '§2.7 rule 6: files of file-source secrets are provisioned at deployment, never packed',
  'bind-mount-absent': '§2.7 rule 5: bind-mount sources are runtime paths, never packed',
};
const COMPONENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function buildComposeArchive(folder: string, opts: { name?: string; version?: string } = {}): Promise<ComposeArchive> {
  if (opts.version !== undefined) componentVersion(opts.version);
  const entries = await walk(folder);
  const wrong = entries.filter((e) => (INVALID_COMPOSE_NAMES as readonly string[]).includes(e.path));
  if (wrong.length > 0) {
    throw new PublishError(
      'WFMCK_E_PUBLISH_COMPOSE',
      `${wrong.map((e) => e.path).join(', ')}: §2.7 rule 2 requires the name ${COMPOSE_FILE}; rename the file (and keep only one compose file)`,
    );
  }
  if (!entries.some((e) => e.path === COMPOSE_FILE && e.type === 'file')) {
    throw new PublishError('WFMCK_E_PUBLISH_COMPOSE', `${folder}: no ${COMPOSE_FILE} at the top of the folder (§2.7 rule 2)`);
  }
  const composeText = new TextDecoder().decode((await readInside(folder, COMPOSE_FILE)).bytes);
  const doc = parseCompose(composeText);
  const declared = (doc as { name?: unknown } | undefined)?.name;
  const name = componentName(opts.name ?? (typeof declared === 'string' ? declared : basename(folder)));
  const excluded = doc === undefined ? [] : exclusions(composeText, doc, entries);
  const kept = entries.filter((e) => !leftOutBy(excluded, entries, e.path));
  const pack: PackEntry[] = [{ name: `${name}/`, type: 'directory' }];
  for (const e of kept) pack.push(await packEntry(folder, name, e));
  const bytes = await packTarGz(pack);
  const findings = composeComponentFindings(await readTarGz(bytes));
  if (findings.length > 0) throw new PublishError('WFMCK_E_PUBLISH_COMPOSE', `${folder}: the archive would break §2.7`, findings);
  const leftOut = entries.flatMap((e) => {
    const by = leftOutBy(excluded, entries, e.path);
    return by ? [{ path: e.path, reason: by.reason }] : [];
  });
  return { bytes, name, packed: kept.map((e) => e.path), excluded: leftOut };
}

export interface ComposeArtifactOptions {
  vendor?: string;
  /** SemVer 2.0 without a leading v; also the OCI tag, so no `+build` part. */
  version: string;
  title?: string;
  authors?: string;
  description?: string;
}

/** The §2.7 compose component manifest: one layer, the archive, with the required and recommended annotations. */
export function buildComposeArtifact(archive: Uint8Array, opts: ComposeArtifactOptions): BuiltArtifact {
  const vendor = opts.vendor ?? 'platform';
  const mt = mediaTypes(vendor);
  const version = componentVersion(opts.version);
  const annotations: Record<string, string> = {
    [mt.annotation.componentType]: 'compose',
    [mt.annotation.componentVersion]: version,
    'org.opencontainers.image.version': version,
    ...(opts.title !== undefined ? { 'org.opencontainers.image.title': opts.title } : {}),
    ...(opts.authors !== undefined ? { 'org.opencontainers.image.authors': opts.authors } : {}),
    ...(opts.description !== undefined ? { 'org.opencontainers.image.description': opts.description } : {}),
  };
  const layer = blobOf(archive, mt.composeLayer, annotations);
  return buildManifest({ tag: version, artifactType: mt.composeArtifact, layers: [layer], schema: 'ComposeComponentManifest', vendor });
}

/** §2.7/§9: SemVer 2.0 without a leading v, usable as the OCI tag. */
export function componentVersion(version: string): string {
  const refuse = (why: string) => new PublishError('WFMCK_E_PUBLISH_VERSION', `version ${JSON.stringify(version)} ${why}`);
  if (/^v\d/i.test(version)) throw refuse('has a leading v; §2.7 wants SemVer 2.0 without it (e.g. 1.2.3)');
  if (!new RegExp(SEMVER_PATTERN).test(version)) throw refuse('is not SemVer 2.0 (MAJOR.MINOR.PATCH[-pre][+build])');
  if (!new RegExp(OCI_TAG_PATTERN).test(version))
    throw refuse('cannot be an OCI tag (a `+build` part is not allowed in tags), and §2.7 makes the version the tag');
  return version;
}

function componentName(name: string): string {
  if (!COMPONENT_NAME.test(name)) {
    throw new PublishError(
      'WFMCK_E_PUBLISH_COMPOSE',
      `component name ${JSON.stringify(name)} must be one path segment of letters, digits, . _ - (it names the top-level directory)`,
    );
  }
  return name;
}

/** compose.yaml as data, or undefined when it does not parse (the final check then reports why). */
function parseCompose(text: string): unknown {
  try {
    const doc = parseDocument(text, { prettyErrors: false });
    return doc.errors.length > 0 ? undefined : (doc.toJS({ maxAliasCount: 100 }) as unknown);
  } catch {
    return undefined;
  }
}

/** What the spec oracle says must not be packed (secret files, bind sources), found on the would-be file list. */
function exclusions(composeText: string, doc: unknown, entries: FolderEntry[]): Exclusion[] {
  const out: Exclusion[] = [];
  for (const f of composeFileFindings(
    composeText,
    entries.map((e) => e.path),
  )) {
    const reason = EXCLUDING_RULES[f.rule];
    const ref = reason && f.path ? referencedPath(doc, f.path) : undefined;
    if (reason && ref !== undefined) out.push({ path: ref, reason });
  }
  return out;
}

type Exclusion = { path: string; reason: string };

const coveredBy = (excluded: Exclusion[], path: string) => excluded.find((x) => path === x.path || path.startsWith(`${x.path}/`));

/** The exclusion that keeps `path` out; a folder that held only excluded files (`secrets/`) goes with them. */
function leftOutBy(excluded: Exclusion[], entries: FolderEntry[], path: string): Exclusion | undefined {
  const direct = coveredBy(excluded, path);
  if (direct) return direct;
  const files = entries.filter((e) => e.path.startsWith(`${path}/`) && e.type !== 'directory').map((e) => coveredBy(excluded, e.path));
  return files.length > 0 && files.every(Boolean) ? files[0] : undefined;
}

/** The file path at a JSON pointer of compose.yaml: a `file`/`source` value, or a short-syntax volume's source. */
function referencedPath(doc: unknown, pointer: string): string | undefined {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (typeof node !== 'string') return undefined;
  const path = pointer.endsWith('/file') || pointer.endsWith('/source') ? node : node.split(':')[0]!;
  return resolveFrom([], path)?.join('/');
}

async function packEntry(folder: string, name: string, e: FolderEntry): Promise<PackEntry> {
  const archivePath = `${name}/${e.path}`;
  if (e.type === 'file')
    return { name: archivePath, type: 'file', content: new Uint8Array(await readFile(join(folder, ...e.path.split('/')))) };
  if (e.type === 'symlink') return { name: archivePath, type: 'symlink', linkname: e.linkname! };
  return { name: archivePath, type: 'directory' };
}
