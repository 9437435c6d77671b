// interfaces.md §2.7 compose components (with §9) as the registry serves them: the component manifest and its layer
// annotations, then the archive pulled by digest and judged, unextracted, by spec/rules/compose-archive.ts and compose-file.ts.
import { test, expect, componentsOf, isObject, type RegistryTarget } from '../fixtures/registry.ts';
import { req } from '../fixtures/req.ts';
import { topLevelDirectory, type TarEntry } from '../spec/rules/compose-archive.ts';
import { composeComponentFindings } from '../spec/rules/compose-file.ts';
import type { Finding } from '../spec/rules/finding.ts';
import { readTarGz } from '../spec/rules/tar-read.ts';
import { SEMVER_PATTERN } from '../spec/schemas/common.ts';
import type { OciDescriptor, OciImageManifest } from '../spec/types.ts';
import { kitError, requireThat, setup } from '../fixtures/outcome.ts';

/** The artifactType of the container tooling's compose-publish command (§2.7 rule 9: an incompatible artifact). */
const COMPOSE_PUBLISH_ARTIFACT = 'application/vnd.docker.compose.project';
const SEMVER = new RegExp(SEMVER_PATTERN);

async function componentManifest(registry: RegistryTarget, tag = registry.compose.version): Promise<OciImageManifest> {
  return (await registry.manifest(registry.compose.repository, tag)).manifest;
}

/** The archive layer: the one of the compose media type, else the first. */
function archiveLayer(registry: RegistryTarget, manifest: OciImageManifest): OciDescriptor {
  const layers = Array.isArray(manifest.layers) ? manifest.layers.filter(isObject) : [];
  const layer = layers.find((l) => l.mediaType === registry.mt.composeLayer) ?? layers[0];
  requireThat('COMPOSE-ONE-LAYER', layer !== undefined, 'the compose component manifest has no layer, so no archive');
  return layer as OciDescriptor;
}

async function annotations(registry: RegistryTarget, tag?: string): Promise<Record<string, string>> {
  const layer = archiveLayer(registry, await componentManifest(registry, tag));
  return isObject(layer.annotations) ? (layer.annotations as Record<string, string>) : {};
}

/** The archive pulled by its layer digest (verified, §2.7 rule 8) and read into entries. */
async function archive(registry: RegistryTarget): Promise<{ bytes: Uint8Array; entries: TarEntry[] }> {
  const bytes = await registry.blob(registry.compose.repository, archiveLayer(registry, await componentManifest(registry)).digest);
  const entries = await setup('COMPOSE-GZIP-TAR', '§2.7: the compose archive is read', async () => {
    const read = await readTarGz(bytes).catch((e: Error) => e);
    expect(
      read instanceof Error ? read.message : 'read',
      '§2.7: the compose archive is a gzip-compressed tar that tar readers agree on',
    ).toBe('read');
    return read as TarEntry[];
  });
  return { bytes, entries };
}

/** The components of the published package that reference this compose repository. */
async function referencing(registry: RegistryTarget): Promise<Record<string, unknown>[]> {
  const { description } = await registry.description(registry.app.repository, registry.app.versions[0]!);
  const found = componentsOf(description).filter((c) => isObject(c.properties) && c.properties.repository === registry.compose.reference);
  if (found.length === 0)
    kitError('WFMCK_E_INTERNAL', `the sample package the kit published names no component ${registry.compose.reference}`);
  return found;
}

async function tags(registry: RegistryTarget): Promise<string[]> {
  return setup('REG-TAGS-LIST', "GET the component's tag list", async () => {
    const page = await registry.client.listTags(registry.compose.repository);
    expect(page.response.status, `§4.7: GET /v2/${registry.compose.repository}/tags/list answers 200`).toBe(200);
    return page.tags ?? [];
  });
}

test.describe('§2.7 compose component manifest', () => {
  test(
    'COMPOSE-ARTIFACTTYPE artifactType is application/vnd.org.<vendor>.component.compose+json',
    req('COMPOSE-ARTIFACTTYPE'),
    async ({ registry }) => {
      expect((await componentManifest(registry)).artifactType, '§2.7: the compose component artifactType').toBe(
        registry.mt.composeArtifact,
      );
    },
  );

  test('COMPOSE-ONE-LAYER the compose component manifest has one layer only', req('COMPOSE-ONE-LAYER'), async ({ registry }) => {
    expect((await componentManifest(registry)).layers?.length, '§2.7: one layer only').toBe(1);
  });

  test(
    'COMPOSE-LAYER-MEDIATYPE the archive layer has mediaType application/vnd.org.<vendor>.component.compose.tar+gzip',
    req('COMPOSE-LAYER-MEDIATYPE'),
    async ({ registry }) => {
      const types = [...new Set(((await componentManifest(registry)).layers ?? []).map((l) => l?.mediaType))];
      expect(types, '§2.7: the layer blob mediaType of a compose archive').toEqual([registry.mt.composeLayer]);
    },
  );

  test(
    'COMPOSE-NO-COMPOSE-PUBLISH the artifact is not the compose-publish shape (its artifactType, one layer per file)',
    req('COMPOSE-NO-COMPOSE-PUBLISH'),
    async ({ registry }) => {
      const manifest = await componentManifest(registry);
      const shapes = [manifest.artifactType, ...(manifest.layers ?? []).map((l) => l?.mediaType)].filter((t) =>
        String(t).startsWith('application/vnd.docker.compose.'),
      );
      expect(shapes, `§2.7 rule 9: no ${COMPOSE_PUBLISH_ARTIFACT} artifact or per-file compose layers`).toEqual([]);
    },
  );

  test(
    'VER-COMPOSE-TAG-SEMVER every compose component tag is SemVer 2.0 without a leading v',
    req('VER-COMPOSE-TAG-SEMVER'),
    async ({ registry }) => {
      expect(
        (await tags(registry)).filter((t) => !SEMVER.test(t)),
        '§9: compose component tags are SemVer 2.0 without a leading v',
      ).toEqual([]);
    },
  );
});

test.describe('§2.7 compose component manifest: the layer annotations', () => {
  test(
    'COMPOSE-ANNOT-ON-LAYER the component annotations are set on the layer descriptor',
    req('COMPOSE-ANNOT-ON-LAYER'),
    async ({ registry }) => {
      const keys = Object.keys(await annotations(registry));
      const { componentType, componentVersion } = registry.mt.annotation;
      expect(
        [componentType, componentVersion].filter((k) => !keys.includes(k)),
        '§2.7: the required annotations sit on the layer descriptor',
      ).toEqual([]);
    },
  );

  test('COMPOSE-ANNOT-TYPE org.<vendor>.component.type is compose', req('COMPOSE-ANNOT-TYPE'), async ({ registry }) => {
    expect((await annotations(registry))[registry.mt.annotation.componentType], '§2.7: component.type MUST be compose').toBe('compose');
  });

  test(
    'COMPOSE-ANNOT-VERSION-SEMVER org.<vendor>.component.version is SemVer 2.0 without a leading v',
    req('COMPOSE-ANNOT-VERSION-SEMVER'),
    async ({ registry }) => {
      const version = (await annotations(registry))[registry.mt.annotation.componentVersion];
      expect(
        typeof version === 'string' && SEMVER.test(version),
        `§2.7: component.version is SemVer 2.0 without v, got ${JSON.stringify(version)}`,
      ).toBe(true);
    },
  );

  test(
    'COMPOSE-ANNOT-VERSION-MATCHES-TAG org.<vendor>.component.version equals the OCI tag, for every tag',
    req('COMPOSE-ANNOT-VERSION-MATCHES-TAG'),
    async ({ registry }) => {
      for (const tag of await tags(registry)) {
        expect(
          (await annotations(registry, tag))[registry.mt.annotation.componentVersion],
          `§2.7: the component version of tag ${tag}`,
        ).toBe(tag);
      }
    },
  );

  test(
    'COMPOSE-ANNOT-VERSION-MATCHES-REVISION the component version matches the revision the package references',
    req('COMPOSE-ANNOT-VERSION-MATCHES-REVISION'),
    async ({ registry }) => {
      for (const component of await referencing(registry)) {
        const revision = String((component.properties as Record<string, unknown>).revision);
        expect(
          (await annotations(registry, revision))[registry.mt.annotation.componentVersion],
          `§2.7: component.version of revision ${revision}`,
        ).toBe(revision);
      }
    },
  );

  for (const [id, key, what] of [
    ['COMPOSE-ANNOT-TITLE', 'org.opencontainers.image.title', 'a human-readable component name'],
    ['COMPOSE-ANNOT-AUTHORS', 'org.opencontainers.image.authors', 'the author or organization'],
    ['COMPOSE-ANNOT-DESCRIPTION', 'org.opencontainers.image.description', 'a short description'],
    ['COMPOSE-ANNOT-OCI-VERSION', 'org.opencontainers.image.version', 'the version'],
  ] as const) {
    test(`${id} the layer carries ${key}, ${what}`, req(id), async ({ registry }) => {
      const value = (await annotations(registry))[key];
      expect(typeof value === 'string' && value.trim() !== '', `§2.7: ${key} is RECOMMENDED (${what})`).toBe(true);
    });
  }

  test(
    'COMPOSE-ANNOT-OCI-VERSION-EQUAL org.opencontainers.image.version, when set, equals the component version',
    req('COMPOSE-ANNOT-OCI-VERSION-EQUAL'),
    async ({ registry }) => {
      const a = await annotations(registry);
      const oci = a['org.opencontainers.image.version'];
      if (oci !== undefined)
        expect(oci, '§2.7: image.version MUST equal component.version if set').toBe(a[registry.mt.annotation.componentVersion]);
    },
  );
});

test.describe('§2.7 compose archive, pulled by digest', () => {
  test(
    'REG-BLOB-BY-DIGEST the archive blob hashes to its layer digest (verified after pulling, before reading)',
    req('REG-BLOB-BY-DIGEST'),
    async ({ registry }) => {
      const layer = archiveLayer(registry, await componentManifest(registry));
      expect((await registry.blob(registry.compose.repository, layer.digest)).length, '§2.7 rule 8: the blob has the layer size').toBe(
        layer.size,
      );
    },
  );

  test('COMPOSE-GZIP-TAR the archive is a gzip-compressed tar', req('COMPOSE-GZIP-TAR'), async ({ registry }) => {
    const { bytes } = await archive(registry);
    expect([bytes[0], bytes[1]], '§2.7: the archive is gzip-compressed (magic 1f 8b)').toEqual([0x1f, 0x8b]);
  });

  test('COMPOSE-TOP-DIR-NAME the top-level directory is named after the component', req('COMPOSE-TOP-DIR-NAME'), async ({ registry }) => {
    const [component] = await referencing(registry);
    expect(topLevelDirectory((await archive(registry)).entries), '§2.7 rule 1: the directory name SHOULD match the component name').toBe(
      component!.name,
    );
  });

  const entryType = (entries: TarEntry[], f: Finding) => entries.find((e) => e.name === f.path)?.type;
  const rules: [string, string, (f: Finding, entries: TarEntry[]) => boolean][] = [
    ['COMPOSE-ONE-TOP-DIR', 'exactly one top-level directory', (f) => f.rule === 'one-top-level-directory'],
    [
      'COMPOSE-FILE-NAME',
      'the compose file is compose.yaml (never compose.yml or docker-compose.y*ml)',
      (f) => f.rule === 'compose-yaml-name' || f.rule === 'compose-yaml-missing',
    ],
    [
      'COMPOSE-SPEC-CONFORMANT',
      'compose.yaml conforms to the Compose Specification',
      (f) => f.rule === 'compose-spec-conformance' || f.rule === 'compose-yaml-parse',
    ],
    [
      'COMPOSE-REFS-INSIDE',
      'every file compose.yaml references resolves inside the top-level directory',
      (f) => f.rule === 'ref-inside-top',
    ],
    ['COMPOSE-ENV-FILE-IN-ARCHIVE', 'env_file files are in the archive', (f) => f.rule === 'env-file-present'],
    ['COMPOSE-CONFIG-FILE-IN-ARCHIVE', 'file-source config files are in the archive', (f) => f.rule === 'config-file-present'],
    ['COMPOSE-NO-BIND-MOUNT-CONTENT', 'bind-mount paths are not in the archive', (f) => f.rule === 'bind-mount-absent'],
    ['COMPOSE-NO-SECRET-FILES', 'file-source secret files are not in the archive', (f) => f.rule === 'secret-file-absent'],
    [
      'COMPOSE-NO-SYMLINK-OUT',
      'no symlink targets a path outside the top-level directory',
      (f, e) => f.rule === 'link-out-of-top' && entryType(e, f) !== 'link',
    ],
    [
      'COMPOSE-NO-HARDLINK-OUT',
      'no hard link targets a path outside the top-level directory',
      (f, e) => f.rule === 'link-out-of-top' && entryType(e, f) === 'link',
    ],
    ['COMPOSE-NO-ABS-PATH', 'no entry has an absolute path', (f) => f.rule === 'no-absolute-path'],
    ['COMPOSE-NO-DOTDOT', 'no entry name contains ../', (f) => f.rule === 'no-dotdot'],
  ];
  for (const [id, what, breaks] of rules) {
    test(`${id} ${what}`, req(id), async ({ registry }) => {
      const { entries } = await archive(registry);
      const found = composeComponentFindings(entries).filter((f) => breaks(f, entries));
      expect(
        found.map((f) => `${f.path ?? ''} ${f.message}`.trim()),
        `§2.7: ${what}`,
      ).toEqual([]);
    });
  }
});
