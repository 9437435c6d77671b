// An application package folder (application description YAML + resource files) as the OCI artifact of §2.7.
import { fileFormatOf } from '../../spec/lint/resource-formats.ts';
import { readdir } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { mediaTypes, type ResourceKind } from '../../spec/media-types.ts';
import { OCI_TAG_PATTERN } from '../../spec/schemas/common.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import { blobOf, buildManifest, PublishError, type ArtifactBlob, type BuiltArtifact } from './artifact.ts';
import { readInside } from './folder.ts';

export interface AppPackageOptions {
  /** Vendor token of media types and annotation keys (profiles.md P1); default `platform`. */
  vendor?: string;
  /** The application description's file inside the folder; default the folder's only top-level `.yaml`/`.yml` file. */
  description?: string;
}

export interface AppPackage extends BuiltArtifact {
  /** `metadata.name` of the application description. */
  name: string;
  descriptionPath: string;
}

/** Layer order after the description: the order §2.7 lists the resource files in. */
export const RESOURCE_ORDER: readonly ResourceKind[] = ['icon', 'releaseNotes', 'descriptionFile', 'licenseFile'];

const TITLE = 'org.opencontainers.image.title';
const TAG = new RegExp(OCI_TAG_PATTERN);

export async function buildAppPackage(folder: string, opts: AppPackageOptions = {}): Promise<AppPackage> {
  const vendor = opts.vendor ?? 'platform';
  const mt = mediaTypes(vendor);
  const description = await readInside(folder, opts.description ?? (await findDescription(folder)));
  const doc = parseDescription(description.bytes, description.path);
  const version = doc.metadata.version;
  if (!TAG.test(version)) {
    throw new PublishError(
      'WFMCK_E_PUBLISH_VERSION',
      `metadata.version ${JSON.stringify(version)} is not a valid OCI tag (${OCI_TAG_PATTERN}); §9 makes it the package's tag`,
    );
  }
  const layers: ArtifactBlob[] = [blobOf(description.bytes, mt.appDescription, { [TITLE]: description.path })];
  const catalog = doc.metadata.catalog?.application ?? {};
  for (const kind of RESOURCE_ORDER) {
    const ref = catalog[kind];
    if (ref === undefined) continue;
    const file = await readInside(folder, ref);
    // The title is the path as the description writes it, so a reader can match layer and catalog entry exactly.
    layers.push(blobOf(file.bytes, mt.resource(kind, fileFormat(ref)), { [TITLE]: ref, [mt.annotation.resource]: kind }));
  }
  const built = buildManifest({ tag: version, artifactType: mt.appArtifact, layers, schema: 'AppPackageManifest', vendor });
  return { ...built, name: doc.metadata.name, descriptionPath: description.path };
}

/**
 * The `<file_format>` of a resource media type (§2.7 leaves it open). Kit reading: the file's extension in lower
 * case, with `jpg` written `jpeg`: `icon.png` -> `+png`, `logo.svg` -> `+svg`, `notes.md` -> `+md`, `LICENSE.txt` -> `+txt`.
 */
export function fileFormat(path: string): string {
  const format = fileFormatOf(path);
  if (format === undefined) {
    throw new PublishError(
      'WFMCK_E_PUBLISH_DESCRIPTION',
      `${path}: a resource file needs an extension (letters and digits) to name its media type's file format`,
    );
  }
  return format;
}

interface Description {
  metadata: { name: string; version: string; catalog?: { application?: Partial<Record<ResourceKind, string>> } };
}

function parseDescription(bytes: Uint8Array, path: string): Description {
  const doc = parseDocument(new TextDecoder().decode(bytes), { prettyErrors: false });
  if (doc.errors.length > 0)
    throw new PublishError('WFMCK_E_PUBLISH_DESCRIPTION', `${path} is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  const verdict = validate('ApplicationDescription', value);
  if (!verdict.ok)
    throw new PublishError(
      'WFMCK_E_PUBLISH_DESCRIPTION',
      `${path} is not an application description (§2.7):\n${formatSchemaErrors(verdict.errors)}`,
    );
  return value as Description;
}

async function findDescription(folder: string): Promise<string> {
  const names = await readdir(folder).catch(() => {
    throw new PublishError('WFMCK_E_PUBLISH_FOLDER', `${folder}: no such folder`);
  });
  const yaml = names.filter((n) => /\.ya?ml$/i.test(n)).sort();
  if (yaml.length === 1) return yaml[0]!;
  const found = yaml.length === 0 ? 'none' : yaml.join(', ');
  throw new PublishError(
    'WFMCK_E_PUBLISH_DESCRIPTION',
    `${folder}: expected exactly one top-level .yaml file (the application description), found ${found}; name it with --description`,
  );
}
