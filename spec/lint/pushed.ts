// `wfmck lint oci://...`: a pushed package or compose component, its manifest and every blob (verified by digest),
// then the description or the archive as the folder and file kinds judge them. Transport is the caller's `Puller`.
import { mediaTypes, type ResourceKind } from '../media-types.ts';
import { finding, type Finding } from '../rules/finding.ts';
import { DIGEST_PATTERN } from '../schemas/common.ts';
import type { OciDescriptor, OciImageManifest } from '../types.ts';
import { composeArchiveFindings } from './compose-archive.ts';
import { descriptionFindings, listedResources, type Description } from './description.ts';
import { located, type Located } from './findings.ts';
import type { LintResult } from './input.ts';
import { artifactKindOf, composeAnnotationFindings, manifestFindings } from './manifest.ts';
import type { OciRef } from './oci-ref.ts';
import { formatMatches, knownFormat } from './resource-formats.ts';

export interface Puller {
  /** The manifest's bytes; throws (a LintInputError) when the registry does not serve it. */
  manifest(): Promise<Uint8Array>;
  /** A blob whose bytes hash to `digest`, or why not: absent, or served with other bytes. */
  blob(digest: string): Promise<{ bytes: Uint8Array } | { problem: 'missing' | 'digest'; message: string }>;
}

const TITLE = 'org.opencontainers.image.title';
const DIGEST = new RegExp(DIGEST_PATTERN);

export async function lintPushed(ref: OciRef, pull: Puller, vendor: string): Promise<LintResult> {
  const bytes = await pull.manifest();
  let manifest: OciImageManifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as OciImageManifest;
  } catch (e) {
    return {
      kind: 'package',
      findings: located([finding('manifest-json', `§2.7: the manifest is not JSON (${(e as Error).message})`)], 'manifest'),
      notes: [],
    };
  }
  const mt = mediaTypes(vendor);
  const kind = artifactKindOf(manifest, mt);
  const tag = ref.isDigest ? undefined : ref.reference;
  const findings: Located[] = located(manifestFindings(manifest, kind, vendor), 'manifest');
  const layers = (Array.isArray(manifest?.layers) ? manifest.layers : []).filter(
    (l): l is OciDescriptor => typeof l === 'object' && l !== null,
  );
  const blobs = new Map<OciDescriptor, Uint8Array>();
  const described: [OciDescriptor | undefined, string][] = [
    [manifest?.config, '/config'],
    ...layers.map((l, i): [OciDescriptor, string] => [l, `/layers/${i}`]),
  ];
  for (const [descriptor, at] of described) {
    if (typeof descriptor?.digest !== 'string' || !DIGEST.test(descriptor.digest)) continue;
    const got = await pull.blob(descriptor.digest);
    if ('problem' in got) {
      findings.push(
        ...located(
          [
            finding(
              got.problem === 'missing' ? 'blob-missing' : 'blob-digest',
              `§4.7: blob ${descriptor.digest} of ${at}: ${got.message}`,
              `${at}/digest`,
            ),
          ],
          'manifest',
        ),
      );
    } else if (got.bytes.byteLength !== descriptor.size) {
      findings.push(
        ...located(
          [
            finding(
              'blob-size',
              `§2.7: the blob of ${at} is ${got.bytes.byteLength} bytes, its descriptor says ${descriptor.size}`,
              `${at}/size`,
            ),
          ],
          'manifest',
        ),
      );
    } else {
      blobs.set(descriptor, got.bytes);
    }
  }
  const notes = [
    `${kind === 'package' ? 'application package' : 'compose component'} ${ref.name}${tag ? `:${tag}` : `@${ref.reference}`}: ${layers.length} layer(s), ${blobs.size} blob(s) with the config fetched and verified by digest`,
  ];
  if (kind === 'compose-component') {
    findings.push(...located(composeAnnotationFindings(manifest, vendor, tag), 'manifest'));
    const layer = layers.find((l) => l.mediaType === mt.composeLayer) ?? layers[0];
    const archive = layer && blobs.get(layer);
    if (archive) {
      const judged = await composeArchiveFindings(archive, `layer ${layer.annotations?.[TITLE] ?? layer.digest}`);
      findings.push(...judged.findings);
      notes.push(...judged.notes);
    }
    return { kind, findings, notes };
  }
  const description = layers.filter((l) => l.mediaType === mt.appDescription);
  const text = description.length === 1 ? blobs.get(description[0]!) : undefined;
  if (!text) return { kind, findings, notes };
  const file = `layer ${description[0]!.annotations?.[TITLE] ?? 'description'}`;
  const judged = descriptionFindings(new TextDecoder().decode(text));
  findings.push(...located(judged.findings, file));
  if (judged.doc) findings.push(...resourceLayerFindings(judged.doc, layers, vendor, file), ...tagFindings(judged.doc, tag, file));
  return { kind, findings, notes };
}

function tagFindings(doc: Description, tag: string | undefined, file: string): Located[] {
  if (tag === undefined || doc.metadata.version === tag) return [];
  return located(
    [
      finding(
        'tag-equals-version',
        `§2.7: the tag ${JSON.stringify(tag)} differs from metadata.version ${JSON.stringify(doc.metadata.version)}`,
        '/metadata/version',
      ),
    ],
    file,
  );
}

/** §2.7: each listed resource is one layer of its kind titled with its path; each resource layer is listed. */
function resourceLayerFindings(doc: Description, layers: OciDescriptor[], vendor: string, file: string): Located[] {
  const mt = mediaTypes(vendor);
  const listed = new Map<ResourceKind, string>(listedResources(doc));
  const out: Finding[] = [];
  const found = new Set<ResourceKind>();
  for (const [i, layer] of layers.entries()) {
    const resource = mt.parseResource(layer.mediaType);
    if (!resource) continue;
    const title = layer.annotations?.[TITLE] ?? '';
    const at = `/layers/${i}`;
    if (listed.get(resource.kind) !== title) {
      out.push(
        finding(
          'resource-listed',
          `§2.7: ${resource.kind} layer ${JSON.stringify(title)} is not what metadata.catalog.application.${resource.kind} lists (${JSON.stringify(listed.get(resource.kind))})`,
          at,
        ),
      );
      continue;
    }
    found.add(resource.kind);
    const known = knownFormat(resource.kind, title);
    if (!known.ok) out.push(finding('resource-format', `§2.7: ${known.reason}`, at));
    else if (!formatMatches(resource.fileFormat, title))
      out.push(
        finding(
          'resource-media-type',
          `§2.7: layer ${JSON.stringify(title)} has media type ${layer.mediaType}, whose format +${resource.fileFormat} is not the file's (${known.format})`,
          `${at}/mediaType`,
        ),
      );
  }
  const onManifest = located(out, 'manifest');
  const missing = [...listed].filter(([kind]) => !found.has(kind));
  const missingFindings = missing.map(([kind, path]) =>
    finding(
      'resource-exists',
      `§2.7: ${kind} ${path} is listed but no ${kind} layer is titled with it`,
      `/metadata/catalog/application/${kind}`,
    ),
  );
  return [...onManifest, ...located(missingFindings, file)];
}
