// interfaces.md §4.7 and §2.7 (with §8 and §9): the application registry as the WFM pulls from it. The kit publishes
// the sample package at several versions (fixtures/registry.ts); the checks judge the tags, manifests and blobs served.
import { randomBytes } from 'node:crypto';
import { test, expect, buildApp, componentsOf, isObject, type RegistryTarget } from '../fixtures/registry.ts';
import { warnUnlessStrict } from '../fixtures/errata.ts';
import { req } from '../fixtures/req.ts';
import { pushArtifact } from '../simulators/publish/push.ts';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST, RESOURCE_KINDS } from '../spec/media-types.ts';
import { digestOf } from '../spec/rules/desired-state.ts';
import { DIGEST_PATTERN, OCI_TAG_PATTERN, SEMVER_PATTERN } from '../spec/schemas/common.ts';
import { formatSchemaErrors, validate } from '../spec/schemas/index.ts';
import { kitError, setup } from '../fixtures/outcome.ts';

const TITLE = 'org.opencontainers.image.title';

/** The tags of the package repository from one unpaginated GET, expected 200 with a tag list (REG-TAGS-LIST's check). */
async function allTags(registry: RegistryTarget): Promise<string[]> {
  return setup('REG-TAGS-LIST', 'GET the tag list', async () => {
    const page = await registry.client.listTags(registry.app.repository);
    expect(page.response.status, `§4.7: GET /v2/${registry.app.repository}/tags/list answers 200`).toBe(200);
    expect(page.tags, '§2.7: the tag list document carries tags, an array').toBeDefined();
    return page.tags!;
  });
}

/** The first published version's manifest, pulled by tag as the WFM retrieval workflow does. */
async function packageManifest(registry: RegistryTarget) {
  return (await registry.manifest(registry.app.repository, registry.app.versions[0]!)).manifest;
}

function layersOf(m: { layers?: unknown }) {
  return Array.isArray(m.layers) ? m.layers.filter(isObject) : [];
}

test.describe('§4.7 registry endpoints (OCI Distribution Specification)', () => {
  test('REG-OCI-DIST GET /v2/ answers 200, or 401 with an authentication challenge', req('REG-OCI-DIST'), async ({ registry }) => {
    const res = await registry.transport.request({ method: 'GET', url: `${registry.url}/v2/` });
    const ok = res.status === 200 || (res.status === 401 && res.headers['www-authenticate'] !== undefined);
    expect(ok, `§1, OCI end-1: GET /v2/ answers 200 (or 401 with WWW-Authenticate), got ${res.status}`).toBe(true);
  });

  test(
    'REG-PUSH-OCI a package pushed as blobs (POST then PUT) and an image manifest (PUT) is accepted',
    req('REG-PUSH-OCI'),
    async ({ registry, profile }) => {
      const pkg = await buildApp(`1.0.0-push.${randomBytes(4).toString('hex')}`, registry.compose.reference, profile.vendor);
      const repository = registry.app.repository.replace(/[^/]+$/, 'push-check');
      const pushed = await pushArtifact(registry.client, repository, pkg).catch((e: Error) => e);
      expect(
        pushed instanceof Error ? pushed.message : 'accepted',
        '§4.7: the registry accepts blobs and the manifest pushed per the OCI push workflow',
      ).toBe('accepted');
    },
  );

  test(
    'REG-MANIFEST-BY-TAG GET manifests/<tag> answers the image manifest of that tag',
    req('REG-MANIFEST-BY-TAG'),
    async ({ registry }) => {
      const { pulled } = await registry.manifest(registry.app.repository, registry.app.versions[0]!);
      expect(pulled.digest ?? digestOf(pulled.bytes), '§4.7: Docker-Content-Digest, when sent, names the bytes served').toBe(
        digestOf(pulled.bytes),
      );
    },
  );

  test(
    'REG-MANIFEST-BY-DIGEST GET manifests/<digest> answers the manifest whose bytes hash to that digest',
    req('REG-MANIFEST-BY-DIGEST'),
    async ({ registry }) => {
      for (const version of registry.app.versions) await registry.manifest(registry.app.repository, registry.app.digests[version]!);
    },
  );

  test(
    'REG-BLOB-BY-DIGEST GET blobs/<digest> answers bytes that hash to the digest, for every part',
    req('REG-BLOB-BY-DIGEST'),
    async ({ registry }) => {
      const manifest = await packageManifest(registry);
      for (const d of [manifest.config, ...layersOf(manifest)]) await registry.blob(registry.app.repository, String(d.digest));
    },
  );
});

test.describe('§4.7 registry endpoints: the tag list and its pages', () => {
  test('REG-TAGS-LIST tags/list answers the tag list with every published version', req('REG-TAGS-LIST'), async ({ registry }) => {
    const tags = await allTags(registry);
    expect(
      registry.app.versions.filter((v) => !tags.includes(v)),
      '§4.7: tags/list lists the package versions pushed',
    ).toEqual([]);
  });

  test(
    'REG-TAG-LIST-SHAPE the tag list document is {name: the repository, tags: [string]}',
    req('REG-TAG-LIST-SHAPE'),
    async ({ registry }) => {
      const page = await registry.client.listTags(registry.app.repository);
      const doc: unknown = page.response.json();
      const verdict = validate('TagList', doc);
      expect(verdict.ok ? '' : formatSchemaErrors(verdict.errors), '§2.7: name (a string) and tags (an array of strings)').toBe('');
      expect((doc as { name: unknown }).name, '§2.7: name is the repository namespace').toBe(registry.app.repository);
    },
  );

  test('REG-TAGS-N tags/list?n=2 answers at most 2 tags', req('REG-TAGS-N'), async ({ registry }) => {
    if (registry.app.versions.length <= 2)
      kitError('WFMCK_E_INTERNAL', 'the kit published no more versions than the page size, so no page can be too long');
    const page = await registry.client.listTags(registry.app.repository, { n: 2 });
    expect(page.response.status, '§4.7: tags/list with n answers 200').toBe(200);
    expect(
      (page.tags ?? []).length,
      `§4.7, §8: n=2 answers at most 2 tags; it answered ${page.tags?.length}: ${(page.tags ?? []).join(', ')}`,
    ).toBeLessThanOrEqual(2);
  });

  test('REG-TAGS-LAST tags/list?last=<tag> answers only tags after it (lexical order)', req('REG-TAGS-LAST'), async ({ registry, ctx }) => {
    const last = [...(await allTags(registry))].sort()[1]!;
    const page = await registry.client.listTags(registry.app.repository, { last });
    expect(page.response.status, '§4.7: tags/list with last answers 200').toBe(200);
    const tags = page.tags ?? [];
    expect(
      tags.filter((t) => t === last),
      `§4.7: last=${last} answers the tags after it, never ${last} itself`,
    ).toEqual([]);
    warnUnlessStrict(
      ctx.strictness,
      tags.some((t) => t < last),
      `§4.7: last=${last} answered tags before it in byte order: ${tags.filter((t) => t < last).join(', ')}`,
    );
  });

  test(
    'LIMIT-TAGS-PAGINATION-COMPLETE paging with n=2 and Link to the end lists every tag exactly once',
    req('LIMIT-TAGS-PAGINATION-COMPLETE'),
    async ({ registry }) => {
      const tags = await allTags(registry);
      const paged = await registry.client.allTags(registry.app.repository, { n: 2 });
      expect(paged.problem, '§8: the pages follow one another to the end').toBeUndefined();
      expect([...paged.tags].sort(), '§8: n and last page through every tag exactly once').toEqual([...tags].sort());
    },
  );
});

test.describe('§2.7 application package manifest', () => {
  test('PKG-SCHEMA-VERSION-2 the manifest has schemaVersion 2', req('PKG-SCHEMA-VERSION-2'), async ({ registry }) => {
    expect((await packageManifest(registry)).schemaVersion, '§2.7: schemaVersion is 2').toBe(2);
  });

  test(
    'PKG-MANIFEST-MEDIATYPE the manifest has mediaType application/vnd.oci.image.manifest.v1+json',
    req('PKG-MANIFEST-MEDIATYPE'),
    async ({ registry }) => {
      expect((await packageManifest(registry)).mediaType, '§2.7: the OCI image manifest media type').toBe(OCI_MANIFEST);
    },
  );

  test(
    'PKG-ARTIFACTTYPE the manifest has artifactType application/vnd.<vendor>.app.v1+json',
    req('PKG-ARTIFACTTYPE'),
    async ({ registry }) => {
      expect((await packageManifest(registry)).artifactType, '§2.7: artifactType MUST be the package type').toBe(registry.mt.appArtifact);
    },
  );

  test('PKG-CONFIG-EMPTY the config is the OCI empty descriptor', req('PKG-CONFIG-EMPTY'), async ({ registry }) => {
    const { mediaType, digest, size } = (await packageManifest(registry)).config ?? {};
    const empty = { mediaType: OCI_EMPTY_DESCRIPTOR.mediaType, digest: OCI_EMPTY_DESCRIPTOR.digest, size: OCI_EMPTY_DESCRIPTOR.size };
    expect({ mediaType, digest, size }, '§2.7: config MUST be the OCI empty descriptor').toEqual(empty);
  });

  test('PKG-LAYER-DESCRIPTOR each layer has mediaType, digest and size', req('PKG-LAYER-DESCRIPTOR'), async ({ registry }) => {
    for (const [i, l] of layersOf(await packageManifest(registry)).entries()) {
      const ok =
        typeof l.mediaType === 'string' &&
        new RegExp(DIGEST_PATTERN).test(String(l.digest)) &&
        Number.isInteger(l.size) &&
        Number(l.size) >= 0;
      expect(ok, `§2.7: layers[${i}] is a descriptor with mediaType, digest and size: ${JSON.stringify(l)}`).toBe(true);
    }
  });

  test('PKG-LAYER-TITLE each layer carries org.opencontainers.image.title', req('PKG-LAYER-TITLE'), async ({ registry }) => {
    for (const [i, l] of layersOf(await packageManifest(registry)).entries()) {
      const title = isObject(l.annotations) ? l.annotations[TITLE] : undefined;
      expect(typeof title === 'string' && title !== '', `§2.7: layers[${i}] has the ${TITLE} annotation (the part's file path)`).toBe(true);
    }
  });

  test(
    'PKG-ONE-DESCRIPTION-LAYER exactly one layer is the application description',
    req('PKG-ONE-DESCRIPTION-LAYER'),
    async ({ registry }) => {
      const descriptions = layersOf(await packageManifest(registry)).filter((l) => l.mediaType === registry.mt.appDescription);
      expect(descriptions.length, `§2.7: exactly one layer of type ${registry.mt.appDescription}`).toBe(1);
    },
  );
});

test.describe('§2.7 application package manifest: resource layers and the vendor token', () => {
  test(
    'PKG-RESOURCE-LAYER each catalog resource file is one layer with the media type of its kind',
    req('PKG-RESOURCE-LAYER'),
    async ({ registry }) => {
      const { manifest, description } = await registry.description(registry.app.repository, registry.app.versions[0]!);
      const catalog = (description.metadata as { catalog?: { application?: Record<string, unknown> } }).catalog?.application ?? {};
      for (const kind of RESOURCE_KINDS.filter((k) => typeof catalog[k] === 'string')) {
        const layers = layersOf(manifest).filter((l) => isObject(l.annotations) && l.annotations[TITLE] === catalog[kind]);
        const kinds = layers.map((l) => registry.mt.parseResource(String(l.mediaType))?.kind);
        expect(
          kinds,
          `§2.7: ${kind} ${String(catalog[kind])} is one layer of type application/vnd.<vendor>.app.${kind}.v1+<format>`,
        ).toEqual([kind]);
      }
    },
  );

  test(
    'PKG-RESOURCES-LISTED every resource layer is listed under metadata.catalog.application',
    req('PKG-RESOURCES-LISTED'),
    async ({ registry }) => {
      const { manifest, description } = await registry.description(registry.app.repository, registry.app.versions[0]!);
      const catalog = (description.metadata as { catalog?: { application?: Record<string, unknown> } }).catalog?.application ?? {};
      for (const l of layersOf(manifest)) {
        const kind = registry.mt.parseResource(String(l.mediaType))?.kind;
        const title = isObject(l.annotations) ? l.annotations[TITLE] : undefined;
        if (kind)
          expect(catalog[kind], `§2.7: the ${kind} layer ${String(title)} is listed as metadata.catalog.application.${kind}`).toBe(title);
      }
    },
  );

  test(
    'PKG-RESOURCE-ANNOTATION each resource layer carries org.<vendor>.app.resource',
    req('PKG-RESOURCE-ANNOTATION'),
    async ({ registry }) => {
      for (const l of layersOf(await packageManifest(registry)).filter((x) => registry.mt.parseResource(String(x.mediaType)))) {
        const has = isObject(l.annotations) && typeof l.annotations[registry.mt.annotation.resource] === 'string';
        expect(has, `§2.7: the resource layer ${String(l.mediaType)} carries ${registry.mt.annotation.resource}`).toBe(true);
      }
    },
  );

  test(
    'PKG-VENDOR-TOKEN media types and annotation keys carry the vendor token',
    req('PKG-VENDOR-TOKEN'),
    async ({ registry, profile }) => {
      const manifest = await packageManifest(registry);
      const types = [manifest.artifactType, ...layersOf(manifest).map((l) => l.mediaType)]
        .map(String)
        .filter((t) => t.startsWith('application/vnd.') && !t.startsWith('application/vnd.oci.'));
      const keys = layersOf(manifest)
        .flatMap((l) => Object.keys(isObject(l.annotations) ? l.annotations : {}))
        .filter((k) => !k.startsWith('org.opencontainers.'));
      const off = [
        ...types.filter((t) => !t.startsWith(`application/vnd.${profile.vendor}.`)),
        ...keys.filter((k) => !k.startsWith(`org.${profile.vendor}.`)),
      ];
      expect(off, `§2.7, P1: vendor token "${profile.vendor}" in every package media type and annotation key`).toEqual([]);
    },
  );

  test('VER-MEDIATYPE-V1 the package media types carry the version v1', req('VER-MEDIATYPE-V1'), async ({ registry, profile }) => {
    const manifest = await packageManifest(registry);
    const types = [manifest.artifactType, ...layersOf(manifest).map((l) => l.mediaType)]
      .map(String)
      .filter((t) => t.startsWith(`application/vnd.${profile.vendor}.`));
    expect(
      types.filter((t) => !/\.v1\+/.test(t)),
      '§9: package media types carry the version v1',
    ).toEqual([]);
  });
});

test.describe('§2.7 application package: one manifest per version, its compose components', () => {
  test('PKG-MANIFEST-PER-VERSION each version has its own manifest', req('PKG-MANIFEST-PER-VERSION'), async ({ registry }) => {
    const digests = new Set<string>();
    for (const version of registry.app.versions)
      digests.add(digestOf((await registry.manifest(registry.app.repository, version)).pulled.bytes));
    expect(digests.size, `§2.7: ${registry.app.versions.length} versions have ${registry.app.versions.length} manifests`).toBe(
      registry.app.versions.length,
    );
  });

  test(
    'PKG-TAG-EQUALS-VERSION each tag equals metadata.version of its package description',
    req('PKG-TAG-EQUALS-VERSION'),
    async ({ registry }) => {
      for (const tag of await allTags(registry)) {
        const { description } = await registry.description(registry.app.repository, tag);
        expect((description.metadata as { version?: unknown }).version, `§2.7, §9: tag ${tag} equals metadata.version`).toBe(tag);
      }
    },
  );

  test(
    'PKG-COMPONENT-REPOSITORY-OCI components[].properties.repository is an oci:// URI',
    req('PKG-COMPONENT-REPOSITORY-OCI'),
    async ({ registry }) => {
      const { description } = await registry.description(registry.app.repository, registry.app.versions[0]!);
      const repositories = componentsOf(description).map((c) => (isObject(c.properties) ? c.properties.repository : undefined));
      if (repositories.length === 0) kitError('WFMCK_E_INTERNAL', 'the sample package the kit published lists no compose component');
      expect(
        repositories.filter((r) => typeof r !== 'string' || !/^oci:\/\/[^/\s]+\/\S+$/.test(r)),
        '§2.7: repository is an oci:// URI',
      ).toEqual([]);
    },
  );

  test(
    'PKG-COMPONENT-REVISION-SEMVER components[].properties.revision is an OCI tag matching SemVer 2.0',
    req('PKG-COMPONENT-REVISION-SEMVER'),
    async ({ registry }) => {
      const { description } = await registry.description(registry.app.repository, registry.app.versions[0]!);
      const revisions = componentsOf(description).map((c) => (isObject(c.properties) ? c.properties.revision : undefined));
      if (revisions.length === 0) kitError('WFMCK_E_INTERNAL', 'the sample package the kit published lists no compose component');
      const bad = revisions.filter(
        (r) => typeof r !== 'string' || !new RegExp(SEMVER_PATTERN).test(r) || !new RegExp(OCI_TAG_PATTERN).test(r),
      );
      expect(bad, '§2.7: revision is an OCI tag matching SemVer 2.0').toEqual([]);
    },
  );
});
