// Faults of §2.7, §4.7, §8, §9 (the OCI application registry: package manifests, tags, blobs). Manifest edits apply
// to pulls by tag and keep Docker-Content-Digest right (served.ts), so each breaks its rule and not the digests.
import { pageTags } from '../registry/decisions.ts';
import { annotationsOf, editManifest, editTagList, isAppPackage, isDescriptionLayer, layersOf, onBlob, serveManifest, swapLayer, type Json, type Rewrite } from './served.ts';
import { on } from './rewrite.ts';
import type { FaultDefinition } from './types.ts';

const TITLE = 'org.opencontainers.image.title';
const RESOURCE_TYPE = /^application\/vnd\.([^.]+)\.app\.(icon|descriptionFile|licenseFile|releaseNotes)\.v1\+/;
const isResourceLayer = (l: Json) => RESOURCE_TYPE.test(String(l.mediaType));
const editPackage = (change: (m: Json) => boolean | void): Rewrite => editManifest(isAppPackage, change);

/** A description (JSON is YAML) rebuilt from the manifest, version = tag and catalog = resource layers, around one component. */
function description(component: Json): (l: Json, at: { tag: string }, m: Json) => Buffer {
  return (_l, at, m) => {
    const application = Object.fromEntries(layersOf(m).filter(isResourceLayer).map((l) => [RESOURCE_TYPE.exec(String(l.mediaType))![2], annotationsOf(l)[TITLE]]));
    const metadata = { name: 'swapped', version: at.tag, catalog: { application } };
    return Buffer.from(JSON.stringify({ metadata, deploymentProfiles: [{ type: 'compose', components: [component] }] }));
  };
}

/** Serves, for every tag of a repository, the first manifest served by tag from it. */
function firstManifestForEveryTag(): Rewrite {
  const first = new Map<string, Buffer>();
  return on('GET', /^\/v2\/.+\/manifests\/[^/:]+$/, (a) => {
    if (a.status !== 200) return undefined;
    const repository = a.url.split('?')[0]!.replace(/\/manifests\/[^/]+$/, '');
    const body = first.get(repository);
    if (!body) return void first.set(repository, a.body);
    return serveManifest(a, JSON.parse(body.toString('utf8')) as Json);
  });
}

export const faults: FaultDefinition[] = [
  // §4.7 endpoints
  {
    id: 'REG-OCI-DIST', service: 'registry', breaks: ['REG-OCI-DIST'],
    description: 'answers GET /v2/ with 404: no OCI Distribution API version check',
    rewrite: on('GET', /^\/v2\/?$/, (a) => ({ ...a, status: 404, body: Buffer.from('{"errors":[{"code":"UNSUPPORTED","message":"not found"}]}') })),
  },
  {
    id: 'REG-PUSH-OCI', service: 'registry', breaks: ['REG-PUSH-OCI'],
    description: 'answers a successful manifest PUT with 200 instead of 201 Created',
    rewrite: on('PUT', /^\/v2\/.+\/manifests\/[^/]+$/, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)),
  },
  {
    id: 'REG-TAGS-LIST', service: 'registry', breaks: ['REG-TAGS-LIST'],
    description: 'leaves the last tag out of an unpaginated tag list',
    rewrite: (a) => (a.url.includes('?') ? undefined : editTagList((d) => void (Array.isArray(d.tags) && d.tags.pop()))(a)),
  },
  {
    id: 'REG-TAG-LIST-SHAPE', service: 'registry', breaks: ['REG-TAG-LIST-SHAPE'],
    description: 'serves tag lists without name',
    rewrite: editTagList((d) => void delete d.name),
  },
  {
    id: 'REG-TAGS-N', service: 'registry', breaks: ['REG-TAGS-N'],
    description: 'ignores n: every tag after last on one page (fails in strict strictness, per the errata)',
    registry: { pageTags: (sorted, _n, last) => pageTags(sorted, undefined, last) },
  },
  {
    id: 'REG-TAGS-LAST', service: 'registry', breaks: ['REG-TAGS-LAST', 'LIMIT-TAGS-PAGINATION-COMPLETE'],
    description: 'ignores last: every page starts again from the first tag',
    registry: { pageTags: (sorted, n) => pageTags(sorted, n, undefined) },
  },
  {
    id: 'LIMIT-TAGS-PAGINATION-COMPLETE', service: 'registry', breaks: ['LIMIT-TAGS-PAGINATION-COMPLETE'],
    description: 'sends no Link header on a tag page that has more after it, so paging stops early',
    rewrite: on('GET', /^\/v2\/.+\/tags\/list$/, (a) => {
      const headers = { ...a.headers };
      delete headers.link;
      return { ...a, headers };
    }),
  },
  {
    id: 'REG-MANIFEST-BY-TAG', service: 'registry', breaks: ['REG-MANIFEST-BY-TAG'],
    description: 'answers a manifest GET by tag with 404 MANIFEST_UNKNOWN (only digests resolve)',
    rewrite: on('GET', /^\/v2\/.+\/manifests\/[^/:]+$/, (a) => ({ ...a, status: 404, body: Buffer.from('{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}') })),
  },
  {
    id: 'REG-MANIFEST-BY-DIGEST', service: 'registry', breaks: ['REG-MANIFEST-BY-DIGEST'],
    description: 'serves a manifest pulled by digest re-serialized (indented): its bytes no longer hash to the digest',
    rewrite: on('GET', /^\/v2\/.+\/manifests\/[^/]+:[^/]+$/, (a) => (a.status === 200 ? { ...a, body: Buffer.from(JSON.stringify(JSON.parse(a.body.toString('utf8')), null, 2)) } : undefined)),
  },
  {
    id: 'REG-BLOB-BY-DIGEST', service: 'registry', breaks: ['REG-BLOB-BY-DIGEST'],
    description: 'serves blobs whose bytes do not match their digest (the last byte flipped)',
    rewrite: onBlob((a) => {
      const body = Buffer.from(a.body);
      if (body.length > 0) body[body.length - 1] = body[body.length - 1]! ^ 0xff;
      return { ...a, body };
    }),
  },
  {
    id: 'REG-SIGNED-PACKAGES', service: 'registry', breaks: ['REG-SIGNED-PACKAGES'],
    description: 'keeps signature manifests but answers the referrers API with an empty index (their subject is dropped)',
    rewrite: on('GET', /^\/v2\/.+\/referrers\/[^/]+$/, (a) => (a.status === 200 ? { ...a, body: Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [] })) } : undefined)),
  },
  // §2.7 package manifests, pulled by tag
  {
    id: 'PKG-SCHEMA-VERSION-2', service: 'registry', breaks: ['PKG-SCHEMA-VERSION-2'],
    description: 'serves package manifests with schemaVersion 1',
    rewrite: editPackage((m) => void (m.schemaVersion = 1)),
  },
  {
    id: 'PKG-MANIFEST-MEDIATYPE', service: 'registry', breaks: ['PKG-MANIFEST-MEDIATYPE'],
    description: 'serves package manifests with the Docker manifest media type',
    rewrite: editPackage((m) => void (m.mediaType = 'application/vnd.docker.distribution.manifest.v2+json')),
  },
  {
    id: 'PKG-ARTIFACTTYPE', service: 'registry', breaks: ['PKG-ARTIFACTTYPE'],
    description: 'serves package manifests with a wrong artifactType (application/vnd.<vendor>.package.v1+json)',
    rewrite: editPackage((m) => void (m.artifactType = String(m.artifactType).replace('.app.v1+', '.package.v1+'))),
  },
  {
    id: 'PKG-CONFIG-EMPTY', service: 'registry', breaks: ['PKG-CONFIG-EMPTY'],
    description: 'serves package manifests whose config is an image config descriptor, not the OCI empty descriptor',
    rewrite: editPackage((m) => void (m.config = { ...(m.config as Json), mediaType: 'application/vnd.oci.image.config.v1+json' })),
  },
  {
    id: 'PKG-LAYER-DESCRIPTOR', service: 'registry', breaks: ['PKG-LAYER-DESCRIPTOR'],
    description: 'serves package layers without size',
    rewrite: editPackage((m) => layersOf(m).forEach((l) => delete l.size)),
  },
  {
    id: 'PKG-LAYER-TITLE', service: 'registry', breaks: ['PKG-LAYER-TITLE'],
    description: 'serves the description layer without org.opencontainers.image.title',
    rewrite: editPackage((m) => layersOf(m).filter(isDescriptionLayer).forEach((l) => delete annotationsOf(l)[TITLE])),
  },
  {
    id: 'PKG-ONE-DESCRIPTION-LAYER', service: 'registry', breaks: ['PKG-ONE-DESCRIPTION-LAYER'],
    description: 'serves package manifests with two application description layers',
    rewrite: editPackage((m) => void (m.layers = [...layersOf(m), ...layersOf(m).filter(isDescriptionLayer)])),
  },
  {
    id: 'PKG-RESOURCE-LAYER', service: 'registry', breaks: ['PKG-RESOURCE-LAYER'],
    description: 'serves the icon layer as image/png instead of application/vnd.<vendor>.app.icon.v1+png',
    rewrite: editPackage((m) => layersOf(m).filter((l) => RESOURCE_TYPE.exec(String(l.mediaType))?.[2] === 'icon').forEach((l) => (l.mediaType = 'image/png'))),
  },
  {
    id: 'PKG-RESOURCES-LISTED', service: 'registry', breaks: ['PKG-RESOURCES-LISTED'],
    description: 'serves one resource layer more than the description lists (a second icon, resources/extra-icon.png)',
    rewrite: editPackage((m) => {
      const icon = layersOf(m).find((l) => RESOURCE_TYPE.exec(String(l.mediaType))?.[2] === 'icon');
      if (!icon) return false;
      m.layers = [...layersOf(m), { ...icon, annotations: { ...annotationsOf(icon), [TITLE]: 'resources/extra-icon.png' } }];
    }),
  },
  {
    id: 'PKG-RESOURCE-ANNOTATION', service: 'registry', breaks: ['PKG-RESOURCE-ANNOTATION'],
    description: 'serves resource layers without org.<vendor>.app.resource',
    rewrite: editPackage((m) => layersOf(m).filter(isResourceLayer).forEach((l) => {
      const vendor = RESOURCE_TYPE.exec(String(l.mediaType))![1]!;
      delete annotationsOf(l)[`org.${vendor}.app.resource`];
    })),
  },
  {
    id: 'PKG-VENDOR-TOKEN', service: 'registry', breaks: ['PKG-VENDOR-TOKEN'],
    description: 'adds the brand-token annotation org.margo.app.resource beside the vendor-token key on resource layers',
    rewrite: editPackage((m) => layersOf(m).filter(isResourceLayer).forEach((l) => (annotationsOf(l)['org.margo.app.resource'] = 'true'))),
  },
  {
    id: 'VER-MEDIATYPE-V1', service: 'registry', breaks: ['VER-MEDIATYPE-V1', 'PKG-ARTIFACTTYPE'],
    description: 'serves package media types with the version v2',
    rewrite: editPackage((m) => {
      m.artifactType = String(m.artifactType).replace('.v1+', '.v2+');
      layersOf(m).forEach((l) => (l.mediaType = String(l.mediaType).replace(/(\.app\.[A-Za-z]+)\.v1\+/, '$1.v2+')));
    }),
  },
  {
    id: 'PKG-MANIFEST-PER-VERSION', service: 'registry', breaks: ['PKG-MANIFEST-PER-VERSION'],
    description: 'resolves every tag of a repository to the manifest of the first tag pulled from it',
    rewrite: firstManifestForEveryTag(),
  },
  {
    id: 'PKG-TAG-EQUALS-VERSION', service: 'registry', breaks: ['PKG-TAG-EQUALS-VERSION'],
    description: 'also tags every pushed manifest `latest`, a tag that is not its metadata.version',
    registry: { tagsOnPush: (tag) => [tag, 'latest'] },
  },
  {
    id: 'PKG-COMPONENT-REPOSITORY-OCI', service: 'registry', breaks: ['PKG-COMPONENT-REPOSITORY-OCI'],
    description: 'serves a package description whose component repository has the https scheme instead of oci',
    rewrite: swapLayer(isAppPackage, isDescriptionLayer, description({ name: 'component', properties: { repository: 'https://registry.example/component', revision: '1.0.0' } })),
  },
  {
    id: 'PKG-COMPONENT-REVISION-SEMVER', service: 'registry', breaks: ['PKG-COMPONENT-REVISION-SEMVER'],
    description: 'serves a package description whose component revision is v1.0.0 (not SemVer: a leading v)',
    rewrite: swapLayer(isAppPackage, isDescriptionLayer, description({ name: 'component', properties: { repository: 'oci://registry.example/component', revision: 'v1.0.0' } })),
  },
];
