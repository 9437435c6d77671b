// What `wfmck publish compose` writes into the RECOMMENDED layer annotations of §2.7 that no flag gave
// (org.opencontainers.image.authors and .description), so its own artifact lints without a warning: the authors and
// description of an application description that lists the component (named, or found in a folder beside it, as
// fixtures/packages lays an app and its compose component out), else a sentence from the component's name and version.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { validate } from '../../spec/schemas/index.ts';
import { PublishError } from './artifact.ts';

export interface ComposeAnnotationDefaults {
  authors: string;
  description: string;
  /** The application description they were read from; absent when made from the component's name. */
  from?: string;
}

/** The application descriptions the kit reads are small; a bigger YAML beside the folder is no description of it. */
const MAX_DESCRIPTION_BYTES = 256 * 1024;
/** A project's folder holds a few components; beside more than this, none is looked into. */
const MAX_SIBLINGS = 32;

interface Described {
  metadata: { description?: unknown; catalog?: { author?: unknown } };
  deploymentProfiles?: { components?: { name?: unknown }[] }[];
}

export async function composeAnnotationDefaults(
  folder: string,
  component: { name: string; version: string },
  appDescription?: string,
): Promise<ComposeAnnotationDefaults> {
  const fallback = {
    authors: `${component.name} maintainers`,
    description: `The ${component.name} compose component, version ${component.version}.`,
  };
  if (appDescription !== undefined) {
    const doc = await readDescription(appDescription);
    if (!doc) throw new PublishError('WFMCK_E_PUBLISH_DESCRIPTION', `${appDescription} is not an application description (§2.7)`);
    return fromDescription(doc, appDescription, fallback);
  }
  for (const file of await filesBeside(folder)) {
    const doc = await readDescription(file);
    if (doc && lists(doc, component.name)) return fromDescription(doc, file, fallback);
  }
  return fallback;
}

function fromDescription(doc: Described, file: string, fallback: { authors: string; description: string }): ComposeAnnotationDefaults {
  const authors = authorsOf(doc.metadata.catalog?.author);
  const description =
    typeof doc.metadata.description === 'string' && doc.metadata.description.trim() ? doc.metadata.description.trim() : undefined;
  return { authors: authors ?? fallback.authors, description: description ?? fallback.description, from: file };
}

/** §2.7's form of authors: "Name (contact)", each author of the description's catalog. */
function authorsOf(author: unknown): string | undefined {
  const list = (Array.isArray(author) ? author : [author]).flatMap((a): string[] => {
    if (typeof a === 'string' && a.trim()) return [a.trim()];
    if (typeof a !== 'object' || a === null || typeof (a as { name?: unknown }).name !== 'string') return [];
    const { name, email } = a as { name: string; email?: unknown };
    return [typeof email === 'string' && email ? `${name} (${email})` : name];
  });
  return list.length ? list.join(', ') : undefined;
}

function lists(doc: Described, name: string): boolean {
  return (doc.deploymentProfiles ?? []).some((p) => (p?.components ?? []).some((c) => c?.name === name));
}

/**
 * The top-level YAML files of the folder's parent and of each folder beside it, in name order; beside a folder among
 * more than MAX_SIBLINGS (a home or temp folder, no project) only the parent's own.
 */
async function filesBeside(folder: string): Promise<string[]> {
  const self = resolve(folder);
  const parent = dirname(self);
  const yamlIn = async (dir: string) =>
    (await readdir(dir).catch(() => [] as string[]))
      .filter((n) => /\.ya?ml$/i.test(n))
      .sort()
      .map((n) => join(dir, n));
  const siblings = (await readdir(parent, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory() && e.name !== basename(self))
    .map((e) => join(parent, e.name))
    .sort();
  return (await Promise.all([parent, ...(siblings.length > MAX_SIBLINGS ? [] : siblings)].map(yamlIn))).flat();
}

async function readDescription(file: string): Promise<Described | undefined> {
  try {
    if ((await stat(file)).size > MAX_DESCRIPTION_BYTES) return undefined;
    const doc = parseDocument(await readFile(file, 'utf8'), { prettyErrors: false });
    if (doc.errors.length > 0) return undefined;
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    return validate('ApplicationDescription', value).ok ? (value as Described) : undefined;
  } catch {
    return undefined;
  }
}
