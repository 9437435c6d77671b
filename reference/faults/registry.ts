// Faults of §2.7, §4.7, §8, §9 (the OCI application registry: package manifests, tags, blobs): rewrites of the answers,
// or registry decisions (reference/registry/decisions.ts). Manifest edits apply to pulls by tag and keep
// Docker-Content-Digest right (served.ts), so each breaks its rule and not the digests.
import { pageTags } from '../registry/decisions.ts';
import {
  annotationsOf,
  editManifest,
  editTagList,
  isAppPackage,
  isDescriptionLayer,
  layersOf,
  onBlob,
  serveManifest,
  swapLayer,
  type Json,
} from './served.ts';
import { on, type Rewrite } from './rewrite.ts';
import type { ServiceFaultTable } from './types.ts';

const TITLE = 'org.opencontainers.image.title';
const RESOURCE_TYPE = /^application\/vnd\.([^.]+)\.app\.(icon|descriptionFile|licenseFile|releaseNotes)\.v1\+/;
const isResourceLayer = (l: Json) => RESOURCE_TYPE.test(String(l.mediaType));
const editPackage = (change: (m: Json) => boolean | void): Rewrite => editManifest(isAppPackage, change);

/** A description (JSON is YAML) rebuilt from the manifest, version = tag and catalog = resource layers, around one component. */
function description(component: Json): (l: Json, at: { tag: string }, m: Json) => Buffer {
  return (_l, at, m) => {
    const application = Object.fromEntries(
      layersOf(m)
        .filter(isResourceLayer)
        .map((l) => [RESOURCE_TYPE.exec(String(l.mediaType))![2], annotationsOf(l)[TITLE]]),
    );
    const metadata = { name: 'swapped', version: at.tag, catalog: { application } };
    return Buffer.from(JSON.stringify({ metadata, deploymentProfiles: [{ type: 'compose', components: [component] }] }));
  };
}

/** Serves, for every tag of a repository, the first manifest served by tag from it (remembered per registry instance). */
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

export const implementations: ServiceFaultTable = {
  // §4.7 endpoints
  'REG-OCI-DIST': {
    rewrite: () =>
      on('GET', /^\/v2\/?$/, (a) => ({
        ...a,
        status: 404,
        body: Buffer.from('{"errors":[{"code":"UNSUPPORTED","message":"not found"}]}'),
      })),
  },
  'REG-PUSH-OCI': {
    rewrite: () => on('PUT', /^\/v2\/.+\/manifests\/[^/]+$/, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)),
  },
  'REG-TAGS-LIST': {
    rewrite: () => (a) => (a.url.includes('?') ? undefined : editTagList((d) => void (Array.isArray(d.tags) && d.tags.pop()))(a)),
  },
  'REG-TAG-LIST-SHAPE': { rewrite: () => editTagList((d) => void delete d.name) },
  'REG-TAGS-N': { registry: () => ({ pageTags: (sorted, _n, last) => pageTags(sorted, undefined, last) }) },
  'REG-TAGS-LAST': { registry: () => ({ pageTags: (sorted, n) => pageTags(sorted, n, undefined) }) },
  'LIMIT-TAGS-PAGINATION-COMPLETE': {
    rewrite: () =>
      on('GET', /^\/v2\/.+\/tags\/list$/, (a) => {
        const headers = { ...a.headers };
        delete headers.link;
        return { ...a, headers };
      }),
  },
  'REG-MANIFEST-BY-TAG': {
    rewrite: () =>
      on('GET', /^\/v2\/.+\/manifests\/[^/:]+$/, (a) => ({
        ...a,
        status: 404,
        body: Buffer.from('{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}'),
      })),
  },
  'REG-MANIFEST-BY-DIGEST': {
    rewrite: () =>
      on('GET', /^\/v2\/.+\/manifests\/[^/]+:[^/]+$/, (a) =>
        a.status === 200 ? { ...a, body: Buffer.from(JSON.stringify(JSON.parse(a.body.toString('utf8')), null, 2)) } : undefined,
      ),
  },
  'REG-BLOB-BY-DIGEST': {
    rewrite: () =>
      onBlob((a) => {
        const body = Buffer.from(a.body);
        if (body.length > 0) body[body.length - 1] = body[body.length - 1]! ^ 0xff;
        return { ...a, body };
      }),
  },
  'REG-SIGNED-PACKAGES': {
    rewrite: () =>
      on('GET', /^\/v2\/.+\/referrers\/[^/]+$/, (a) =>
        a.status === 200
          ? {
              ...a,
              body: Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [] })),
            }
          : undefined,
      ),
  },
  // §2.7 package manifests, pulled by tag
  'PKG-SCHEMA-VERSION-2': { rewrite: () => editPackage((m) => void (m.schemaVersion = 1)) },
  'PKG-MANIFEST-MEDIATYPE': {
    rewrite: () => editPackage((m) => void (m.mediaType = 'application/vnd.docker.distribution.manifest.v2+json')),
  },
  'PKG-ARTIFACTTYPE': {
    rewrite: () => editPackage((m) => void (m.artifactType = String(m.artifactType).replace('.app.v1+', '.package.v1+'))),
  },
  'PKG-CONFIG-EMPTY': {
    rewrite: () => editPackage((m) => void (m.config = { ...(m.config as Json), mediaType: 'application/vnd.oci.image.config.v1+json' })),
  },
  'PKG-LAYER-DESCRIPTOR': { rewrite: () => editPackage((m) => layersOf(m).forEach((l) => delete l.size)) },
  'PKG-LAYER-TITLE': {
    rewrite: () =>
      editPackage((m) =>
        layersOf(m)
          .filter(isDescriptionLayer)
          .forEach((l) => delete annotationsOf(l)[TITLE]),
      ),
  },
  'PKG-ONE-DESCRIPTION-LAYER': {
    rewrite: () => editPackage((m) => void (m.layers = [...layersOf(m), ...layersOf(m).filter(isDescriptionLayer)])),
  },
  'PKG-RESOURCE-LAYER': {
    rewrite: () =>
      editPackage((m) =>
        layersOf(m)
          .filter((l) => RESOURCE_TYPE.exec(String(l.mediaType))?.[2] === 'icon')
          .forEach((l) => (l.mediaType = 'image/png')),
      ),
  },
  'PKG-RESOURCES-LISTED': {
    rewrite: () =>
      editPackage((m) => {
        const icon = layersOf(m).find((l) => RESOURCE_TYPE.exec(String(l.mediaType))?.[2] === 'icon');
        if (!icon) return false;
        m.layers = [...layersOf(m), { ...icon, annotations: { ...annotationsOf(icon), [TITLE]: 'resources/extra-icon.png' } }];
      }),
  },
  'PKG-RESOURCE-ANNOTATION': {
    rewrite: () =>
      editPackage((m) =>
        layersOf(m)
          .filter(isResourceLayer)
          .forEach((l) => {
            const vendor = RESOURCE_TYPE.exec(String(l.mediaType))![1]!;
            delete annotationsOf(l)[`org.${vendor}.app.resource`];
          }),
      ),
  },
  'PKG-VENDOR-TOKEN': {
    rewrite: () =>
      editPackage((m) =>
        layersOf(m)
          .filter(isResourceLayer)
          .forEach((l) => (annotationsOf(l)['org.margo.app.resource'] = 'true')),
      ),
  },
  'VER-MEDIATYPE-V1': {
    rewrite: () =>
      editPackage((m) => {
        m.artifactType = String(m.artifactType).replace('.v1+', '.v2+');
        layersOf(m).forEach((l) => (l.mediaType = String(l.mediaType).replace(/(\.app\.[A-Za-z]+)\.v1\+/, '$1.v2+')));
      }),
  },
  'PKG-MANIFEST-PER-VERSION': { rewrite: firstManifestForEveryTag },
  'PKG-TAG-EQUALS-VERSION': { registry: () => ({ tagsOnPush: (tag) => [tag, 'latest'] }) },
  'PKG-COMPONENT-REPOSITORY-OCI': {
    rewrite: () =>
      swapLayer(
        isAppPackage,
        isDescriptionLayer,
        description({ name: 'component', properties: { repository: 'https://registry.example/component', revision: '1.0.0' } }),
      ),
  },
  'PKG-COMPONENT-REVISION-SEMVER': {
    rewrite: () =>
      swapLayer(
        isAppPackage,
        isDescriptionLayer,
        description({ name: 'component', properties: { repository: 'oci://registry.example/component', revision: 'v1.0.0' } }),
      ),
  },
};
