// profiles.md P4 (interfaces.md §4.4 leaves it "not shown"), with §2.4.1 rule 7 and §9: the state manifest a client
// fetches, its deployment YAMLs and its bundle, for deployments assigned and removed through the P5 hooks.
import { parse } from 'yaml';
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { expectEach, judgeAs } from '../fixtures/expect-each.ts';
import { assign, currentManifest, deploymentYaml, entryOf, hostingDevice, remove, seeThruGateway } from '../fixtures/desired-state.ts';
import { judgeStateManifestSequence, digestOf } from '../spec/rules/desired-state.ts';
import { checkVersionSequence, manifestVersionFindings } from '../spec/rules/manifest-version.ts';
import { readTarGz } from '../spec/rules/tar-read.ts';
import { mediaTypes } from '../spec/media-types.ts';
import { validate } from '../spec/schemas/index.ts';
import type { StateManifest } from '../spec/types.ts';
import { problemName } from '../fixtures/problems.ts';
import { warnUnlessStrict } from '../fixtures/errata.ts';
import { requireThat, skipFor, skipIf } from '../fixtures/outcome.ts';

/** P4: `<algorithm>:<lowercase hex>`; the kit knows sha256 and sha512. */
const DIGEST = /^(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$/;

/** The digest of `bytes` under the algorithm `digest` names (its format is DS-DIGEST-FORMAT's business). */
function sameDigest(bytes: Uint8Array, digest: string): boolean {
  const alg = digest.split(':')[0]!.toLowerCase();
  return (alg === 'sha256' || alg === 'sha512') && digestOf(bytes, alg) === digest.toLowerCase();
}

/** The opaque tag of an ETag (`"x"` or `W/"x"`); a bare value is read as the tag itself. */
function opaque(etag: string): string {
  return /^(?:W\/)?"([^"]*)"$/.exec(etag.trim())?.[1] ?? etag.trim();
}

test.beforeEach(({ profile }) => {
  skipIf(profile.desiredState !== 'v1', 'disabled', 'P4: the profile delivers desired state through a hook, not the v1 endpoints');
});

test.describe('P4 GET /api/v1/clients/{clientId}/deployments: the state manifest', () => {
  test("DS-GET-200 a client's state manifest answers 200 with the manifest and an ETag", req('DS-GET-200'), async ({ device, profile }) => {
    const client = await device();
    const res = await client.api.getDesiredState();
    expect(res.status, 'P4: GET deployments answers 200').toBe(200);
    const checked = validate('StateManifest', JSON.parse(res.text()), { vendor: profile.vendor });
    expect(checked.ok ? [] : checked.errors, 'P4: the body is a state manifest {manifestVersion, bundle, deployments}').toEqual([]);
    expect(res.headers['etag'], 'P4: the state manifest comes with an ETag').toBeTruthy();
  });

  test("DS-ETAG-IS-DIGEST the ETag is the digest of the manifest's response bytes", req('DS-ETAG-IS-DIGEST'), async ({ device, hooks }) => {
    const client = await device();
    await assign(client, hooks, await hostingDevice(client));
    const { response, etag } = await currentManifest(client);
    expect(
      sameDigest(response.body, opaque(etag ?? '')),
      `P4: ETag ${etag} is the digest of the manifest bytes (${digestOf(response.body)})`,
    ).toBe(true);
  });

  test('DS-304 If-None-Match with the current ETag: 304 while the manifest is unchanged', req('DS-304'), async ({ device }) => {
    const client = await device();
    const { etag } = await currentManifest(client);
    const res = await client.api.getDesiredState(client.clientId, { etag: etag ?? '"none"' });
    expect(res.status, 'P4: an unchanged state manifest answers 304 to its own ETag').toBe(304);
  });

  test(
    'DS-304 If-None-Match with the ETag of an earlier manifest: 200 with the changed manifest',
    req('DS-304'),
    async ({ device, hooks }) => {
      const client = await device();
      const before = await currentManifest(client);
      const a = await assign(client, hooks, await hostingDevice(client));
      const res = await client.api.getDesiredState(client.clientId, { etag: before.etag ?? '"none"' });
      expect(res.status, 'P4: 304 only while the manifest is unchanged; after an assignment the old ETag gets 200').toBe(200);
      expect(
        res.json<StateManifest>().deployments.map((d) => d.deploymentId),
        'P4: the 200 carries the changed manifest',
      ).toContain(a.deploymentId);
    },
  );

  test('DS-406 an Accept type the WFM cannot serve: 406', req('DS-406'), async ({ device }) => {
    const client = await device();
    const res = await client.api.getDesiredState(client.clientId, { accept: 'application/vnd.wfmck.unservable+xml' });
    expect(res.status, 'P4: 406 when the Accept type cannot be served').toBe(406);
  });

  test(
    "DS-MANIFESTVERSION-RANGE a new client's manifestVersion is an integer from 1 to 2^64-1",
    req('DS-MANIFESTVERSION-RANGE'),
    async ({ device }) => {
      const { manifest } = await currentManifest(await device());
      expect(manifestVersionFindings(manifest.manifestVersion), 'P4: manifestVersion is an integer in [1, 2^64-1]').toEqual([]);
    },
  );

  test('DS-BUNDLE-NULL-WHEN-EMPTY a client with no deployments gets bundle null', req('DS-BUNDLE-NULL-WHEN-EMPTY'), async ({ device }) => {
    const { manifest } = await currentManifest(await device());
    requireThat(
      'DS-DEPLOYMENTS-ENTRIES',
      Array.isArray(manifest.deployments) && manifest.deployments.length === 0,
      `a new client has no deployments, yet its manifest lists ${JSON.stringify(manifest.deployments)?.slice(0, 200)}`,
    );
    expect(manifest.bundle, 'P4: bundle is null when there are no deployments').toBeNull();
  });

  test(
    'DS-BUNDLE-NULL-WHEN-EMPTY once its only deployment is removed, bundle is null again',
    req('DS-BUNDLE-NULL-WHEN-EMPTY'),
    async ({ device, hooks }) => {
      const client = await device();
      await remove(client, hooks, await assign(client, hooks, await hostingDevice(client)));
      const { manifest } = await currentManifest(client);
      requireThat(
        'DS-DEPLOYMENTS-ENTRIES',
        Array.isArray(manifest.deployments) && manifest.deployments.length === 0,
        `the removed deployment is still listed: ${JSON.stringify(manifest.deployments)?.slice(0, 200)}`,
      );
      expect(manifest.bundle, 'P4: bundle is null when there are no deployments').toBeNull();
    },
  );

  test(
    'DS-VERSION-STRICTLY-INCREASING AMV-MONOTONIC across assign, assign and remove each changed manifest has a greater, never repeated manifestVersion',
    req('DS-VERSION-STRICTLY-INCREASING', 'AMV-MONOTONIC'),
    async ({ device, hooks }) => {
      const client = await device();
      const id = await hostingDevice(client);
      const seen: StateManifest[] = [(await currentManifest(client)).manifest];
      const first = await assign(client, hooks, id);
      seen.push((await currentManifest(client)).manifest);
      await assign(client, hooks, id, ['cache']);
      seen.push((await currentManifest(client)).manifest);
      await remove(client, hooks, first);
      seen.push((await currentManifest(client)).manifest);
      const steps = seen.slice(1).flatMap((m, i) => judgeStateManifestSequence(seen[i], m));
      expect(steps, '§2.4.1 rule 7, P4: a changed manifest has a strictly greater manifestVersion').toEqual([]);
      expect(checkVersionSequence(seen.map((m) => m.manifestVersion)), '§9: manifest versions never repeat').toEqual([]);
    },
  );

  test(
    'DS-BUNDLE-DESCRIPTOR with a deployment, bundle is {mediaType, digest, url} of the vendor bundle type',
    req('DS-BUNDLE-DESCRIPTOR'),
    async ({ device, hooks, profile }) => {
      const client = await device();
      await assign(client, hooks, await hostingDevice(client));
      const { bundle } = (await currentManifest(client)).manifest;
      expect(bundle?.mediaType, 'P4: bundle.mediaType is application/vnd.<vendor>.bundle.v1+tar+gzip').toBe(
        mediaTypes(profile.vendor).deploymentBundle,
      );
      expect(typeof bundle?.digest === 'string' && typeof bundle.url === 'string', 'P4: bundle carries digest and url').toBe(true);
    },
  );

  test(
    'DS-DEPLOYMENTS-ENTRIES deployments holds one {deploymentId, digest, url} per assigned deployment',
    req('DS-DEPLOYMENTS-ENTRIES'),
    async ({ device, hooks }) => {
      const client = await device();
      const id = await hostingDevice(client);
      const ids = [(await assign(client, hooks, id)).deploymentId, (await assign(client, hooks, id, ['cache'])).deploymentId];
      const { deployments } = (await currentManifest(client)).manifest;
      expect(deployments.map((d) => d.deploymentId).sort(), 'P4: exactly one entry per assigned deployment').toEqual([...ids].sort());
      for (const d of deployments)
        expect(typeof d.digest === 'string' && typeof d.url === 'string', `P4: entry ${d.deploymentId} has digest and url`).toBe(true);
    },
  );

  test(
    'DS-DIGEST-FORMAT every digest of the manifest is <algorithm>:<lowercase hex>',
    req('DS-DIGEST-FORMAT'),
    async ({ device, hooks }) => {
      const client = await device();
      await assign(client, hooks, await hostingDevice(client));
      const { manifest } = await currentManifest(client);
      const digests = [...manifest.deployments.map((d) => d.digest), manifest.bundle?.digest ?? 'no bundle'];
      for (const d of digests) expect(d, 'P4: digests are <algorithm>:<hex> (sha256 by default), lowercase hex').toMatch(DIGEST);
    },
  );

  test(
    'VER-PATH-V1 the URLs a state manifest hands out are Device API paths under /api/v1/',
    req('VER-PATH-V1'),
    async ({ device, hooks, ctx }) => {
      const client = await device();
      await assign(client, hooks, await hostingDevice(client));
      const { response, manifest } = await currentManifest(client);
      const base = new URL(response.exchange.url);
      for (const url of [...manifest.deployments.map((d) => d.url), manifest.bundle?.url ?? '']) {
        const path = new URL(url, base).pathname;
        expect(
          path.startsWith(new URL(ctx.targets.wfm!).pathname.replace(/\/$/, '') + '/api/v1/'),
          `§9: ${path} carries the version segment v1`,
        ).toBe(true);
      }
    },
  );
});

test.describe('P4 GET {deployments[].url}: the ApplicationDeployment YAML', () => {
  test(
    'DS-DEPLOYMENT-DIGEST-MATCHES the YAML answers application/yaml and its bytes hash to the listed digest',
    req('DS-DEPLOYMENT-DIGEST-MATCHES'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { manifest } = await currentManifest(client);
      const { response } = await deploymentYaml(client, manifest, a.deploymentId);
      expect(response.headers['content-type'] ?? '', 'P4: the deployment is served as application/yaml').toMatch(/^application\/yaml\b/);
      expect(sameDigest(response.body, entryOf(manifest, a.deploymentId).digest), 'P4: the YAML bytes hash to deployments[].digest').toBe(
        true,
      );
    },
  );

  test(
    'DS-DEPLOYMENT-404 a deployment URL with a digest the WFM cannot serve: 404',
    req('DS-DEPLOYMENT-404'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const entry = entryOf((await currentManifest(client)).manifest, a.deploymentId);
      const wrong = entry.url.replace(/[^/]+$/, digestOf(Buffer.from('not this deployment')));
      expect((await client.api.getDeploymentYaml(wrong)).status, 'P4: 404 when the exact digest cannot be served').toBe(404);
    },
  );

  test('DS-YAML-KIND the YAML carries apiVersion and kind ApplicationDeployment', req('DS-YAML-KIND'), async ({ device, hooks }) => {
    const client = await device();
    const a = await assign(client, hooks, await hostingDevice(client));
    const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
    expect(typeof doc.apiVersion === 'string' && doc.apiVersion !== '', 'P4: the YAML carries apiVersion').toBe(true);
    expect(doc.kind, 'P4: kind is ApplicationDeployment').toBe('ApplicationDeployment');
  });

  test(
    'DS-YAML-ID-MATCHES metadata.annotations.id equals the deploymentId it is listed under',
    req('DS-YAML-ID-MATCHES'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
      expect(doc.metadata?.annotations?.['id'], 'P4: metadata.annotations.id is the deployment UUID').toBe(a.deploymentId);
    },
  );

  test(
    'DS-YAML-DEVICEID metadata.deviceId is the target device with its full hierarchy',
    req('DS-YAML-DEVICEID'),
    async ({ device, hooks }) => {
      const client = await device();
      const { child } = await seeThruGateway(client);
      const a = await assign(client, hooks, child);
      const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
      expect(doc.metadata?.deviceId, 'P4: metadata.deviceId is the full hierarchy <gateway>/<child>').toBe(child);
    },
  );

  test(
    'DS-YAML-WILDCARD-CHILD a deployment for "<gateway>/*" keeps the trailing /* (the gateway chooses the child)',
    req('DS-YAML-WILDCARD-CHILD'),
    async ({ device, hooks }) => {
      const client = await device();
      const { gateway } = await seeThruGateway(client);
      // MAY: a WFM that does not let the gateway choose answers {refused} (skip: unsupported, the refusal its evidence).
      const a = await assign(client, hooks, `${gateway}/*`);
      const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
      expect(doc.metadata?.deviceId, 'P4: a trailing /* means the gateway chooses the child').toBe(`${gateway}/*`);
    },
  );

  test(
    'DS-YAML-PROFILE-TYPE spec.deploymentProfile.type is helm.v3 or compose',
    req('DS-YAML-PROFILE-TYPE'),
    async ({ device, hooks, ctx }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
      const type = doc.spec?.deploymentProfile?.type;
      // P10 errata: the miaf spelling `helm` is ambiguous: it fails only in strict.
      const allowed = ctx.strictness === 'strict' ? ['helm.v3', 'compose'] : ['helm.v3', 'compose', 'helm'];
      expect(allowed, `P4: deploymentProfile.type is helm.v3 or compose, got ${JSON.stringify(type)}`).toContain(type);
    },
  );

  test(
    'DS-YAML-COMPONENTS each component carries name, an oci:// repository and the revision assigned',
    req('DS-YAML-COMPONENTS'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
      const got = (doc.spec?.deploymentProfile?.components ?? []).map((c) => ({
        name: c.name,
        repository: c.properties?.repository,
        revision: c.properties?.revision,
      }));
      const want = a.components.map((name) => ({ name, repository: `oci://registry.example/wfmck/${name}`, revision: '1.0.0' }));
      expect(got, 'P4: components[] carry name and properties {repository (oci://), revision} as assigned').toEqual(want);
    },
  );
});

test.describe("P4 desired state is one client's", () => {
  test(
    "DS-SERVED-TO-OWN-CLIENT another client, with valid credentials of its own, gets 403 or 404 for a client's manifest, deployment YAML and bundle",
    req('DS-SERVED-TO-OWN-CLIENT'),
    async ({ device, hooks, profile }) => {
      const owner = await device();
      const a = await assign(owner, hooks, await hostingDevice(owner));
      const { manifest } = await currentManifest(owner);
      const entry = entryOf(manifest, a.deploymentId);
      requireThat(
        'DS-BUNDLE-DESCRIPTOR',
        typeof manifest.bundle?.url === 'string',
        `with a deployment the manifest's bundle is ${JSON.stringify(manifest.bundle)}`,
      );
      const other = await device();
      const asked: [string, number][] = [
        // P10 serves each caller its own manifest at one path: there is no other client's manifest to ask for.
        ...(profile.deploymentsPath === 'per-client'
          ? [['the state manifest', (await other.api.getDesiredState(owner.clientId)).status] as [string, number]]
          : []),
        ['the deployment YAML', (await other.api.getDeploymentYaml(entry.url)).status],
        ['the bundle', (await other.api.getBundle(manifest.bundle!.url)).status],
      ];
      const served = asked.filter(([, status]) => status !== 403 && status !== 404).map(([what, status]) => `${what}: ${status}`);
      expect(served, "P4, P10: another client gets 403 or 404 for what is one client's").toEqual([]);
    },
  );
});

test.describe('P4 GET {bundle.url}: the deployment bundle', () => {
  test('DS-BUNDLE-DIGEST-MATCHES the bundle bytes hash to bundle.digest', req('DS-BUNDLE-DIGEST-MATCHES'), async ({ device, hooks }) => {
    const client = await device();
    await assign(client, hooks, await hostingDevice(client));
    const { bundle } = (await currentManifest(client)).manifest;
    requireThat(
      'DS-BUNDLE-DESCRIPTOR',
      typeof bundle?.url === 'string' && typeof bundle.digest === 'string',
      `with a deployment the manifest's bundle is ${JSON.stringify(bundle)}`,
    );
    const res = await client.api.getBundle(bundle!.url);
    expect(res.status, 'P4: the bundle URL answers 200 with the bundle').toBe(200);
    expect(sameDigest(res.body, bundle!.digest), 'P4: the bundle bytes hash to bundle.digest').toBe(true);
  });

  test(
    "DS-BUNDLE-CONTENTS the bundle is a gzip tar holding exactly the manifest's deployment YAMLs",
    req('DS-BUNDLE-CONTENTS'),
    async ({ device, hooks }) => {
      const client = await device();
      const id = await hostingDevice(client);
      await assign(client, hooks, id);
      await assign(client, hooks, id, ['cache']);
      const { manifest } = await currentManifest(client);
      requireThat(
        'DS-BUNDLE-DESCRIPTOR',
        typeof manifest.bundle?.url === 'string',
        `with deployments the manifest's bundle is ${JSON.stringify(manifest.bundle)}`,
      );
      const res = await client.api.getBundle(manifest.bundle!.url);
      requireThat('DS-BUNDLE-DIGEST-MATCHES', res.status === 200, `GET the bundle answered ${res.status}`);
      const files = (await readTarGz(res.body)).filter((e) => e.type === 'file' || e.type === 'contiguous-file');
      const inBundle = files.map((f) => digestOf(f.content ?? new Uint8Array())).sort();
      const listed = [...new Set(manifest.deployments.map((d) => d.digest.toLowerCase()))].sort();
      expect(inBundle, 'P4: the bundle holds exactly the deployment YAML files of the state manifest').toEqual(listed);
      for (const f of files) expect(() => parse(Buffer.from(f.content ?? []).toString('utf8')), `P4: ${f.name} is YAML`).not.toThrow();
    },
  );

  test(
    'DS-BUNDLE-IMMUTABLE an earlier bundle URL still answers the same bytes, cacheable as immutable',
    req('DS-BUNDLE-IMMUTABLE'),
    async ({ device, hooks }) => {
      const client = await device();
      const id = await hostingDevice(client);
      await assign(client, hooks, id);
      const { bundle } = (await currentManifest(client)).manifest;
      requireThat(
        'DS-BUNDLE-DESCRIPTOR',
        typeof bundle?.url === 'string',
        `with a deployment the manifest's bundle is ${JSON.stringify(bundle)}`,
      );
      const first = await client.api.getBundle(bundle!.url);
      requireThat('DS-BUNDLE-DIGEST-MATCHES', first.status === 200, `GET the bundle answered ${first.status}`);
      await assign(client, hooks, id, ['cache']);
      const again = await client.api.getBundle(bundle!.url);
      expect(again.status, 'P4: a bundle URL keeps answering after the manifest moves on').toBe(200);
      expect(Buffer.from(again.body).equals(Buffer.from(first.body)), 'P4: a bundle URL always answers the same bytes').toBe(true);
      const cc = (again.headers['cache-control'] ?? '').split(',').map((s) => s.trim().toLowerCase());
      expect(cc, 'P4: Cache-Control public, max-age=31536000, immutable').toEqual(
        expect.arrayContaining(['public', 'max-age=31536000', 'immutable']),
      );
    },
  );
});

test.describe('P10 edition miaf: GET /api/v1/deployments, its deployment YAMLs and bundles', () => {
  const YEAR_IMMUTABLE = /^private,\s*max-age=31536000,\s*immutable$/i;
  /** P10: a revision is SemVer without a leading v, build metadata after `_` instead of `+`. */
  const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(_[0-9A-Za-z.-]+)?$/;

  test(
    "MIAF-DS-GET-200 MIAF-DS-CACHE-PRIVATE GET /api/v1/deployments answers the caller's manifest with Cache-Control: private",
    req('MIAF-DS-GET-200', 'MIAF-DS-CACHE-PRIVATE'),
    async ({ device, profile }) => {
      const client = await device();
      const res = await client.api.getDesiredState();
      await judgeAs('MIAF-DS-GET-200', () => {
        expect(new URL(res.exchange.url).pathname, "P10: the caller's own path, no clientId in it").toBe('/api/v1/deployments');
        expect(res.status, 'P10: GET /api/v1/deployments answers 200').toBe(200);
        const checked = validate('StateManifest', JSON.parse(res.text()), { vendor: profile.vendor });
        expect(checked.ok ? [] : checked.errors, 'P10: the body is a state manifest').toEqual([]);
      });
      await judgeAs('MIAF-DS-CACHE-PRIVATE', () =>
        expect(res.headers['cache-control'] ?? '', "P10: Cache-Control: private (one client's manifest)").toMatch(/^private$/i),
      );
    },
  );

  test(
    'MIAF-DS-ETAG-QUOTED-DIGEST the ETag is the quoted digest of the manifest, and If-None-Match with it answers 304',
    req('MIAF-DS-ETAG-QUOTED-DIGEST'),
    async ({ device, hooks }) => {
      const client = await device();
      await assign(client, hooks, await hostingDevice(client));
      const { response, etag } = await currentManifest(client);
      expect(etag, 'P10: ETag is "<digest of the manifest bytes>"').toBe(`"${digestOf(response.body)}"`);
      expect((await client.api.getDesiredState(client.clientId, { etag: etag! })).status, 'P10: 304 to its own ETag').toBe(304);
    },
  );

  test(
    'MIAF-DS-406-PROBLEM an Accept type the WFM cannot serve: 406 with problem type server-cannot-generate-response',
    req('MIAF-DS-406-PROBLEM'),
    async ({ device, profile }) => {
      const client = await device();
      const res = await client.api.getDesiredState(client.clientId, { accept: 'text/html' });
      expect(res.status, 'P10: 406').toBe(406);
      expect(problemName(res, profile), `P10: problem type server-cannot-generate-response, got ${res.text().slice(0, 200)}`).toBe(
        'server-cannot-generate-response',
      );
    },
  );

  test(
    "MIAF-DS-FIRST-VERSION-1 MIAF-DS-BUNDLE-NULL a new client's first manifest is version 1 with bundle present and null",
    req('MIAF-DS-FIRST-VERSION-1', 'MIAF-DS-BUNDLE-NULL'),
    async ({ device }) => {
      const { manifest } = await currentManifest(await device());
      expectEach(
        [
          ...(manifest.manifestVersion !== 1
            ? [{ id: 'MIAF-DS-FIRST-VERSION-1', message: `the first state manifest is version ${manifest.manifestVersion}, not 1` }]
            : []),
          ...(!(Object.hasOwn(manifest, 'bundle') && manifest.bundle === null)
            ? [
                {
                  id: 'MIAF-DS-BUNDLE-NULL',
                  message: `bundle is ${JSON.stringify(manifest.bundle)}, not present and null with zero deployments`,
                },
              ]
            : []),
        ],
        "P10: a new client's first manifest",
      );
    },
  );

  test(
    'MIAF-DEPLOYMENT-GET MIAF-DEPLOYMENT-CACHE a deployment YAML: application/yaml, its digest, immutable private caching, Vary: Accept-Encoding',
    req('MIAF-DEPLOYMENT-GET', 'MIAF-DEPLOYMENT-CACHE'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { manifest } = await currentManifest(client);
      const entry = entryOf(manifest, a.deploymentId);
      expect(
        new URL(entry.url, 'https://wfm.invalid/api/v1/deployments').pathname,
        'P10: /api/v1/deployments/{deploymentId}/{digest}',
      ).toBe(`/api/v1/deployments/${a.deploymentId}/${entry.digest}`);
      const { response } = await deploymentYaml(client, manifest, a.deploymentId);
      await judgeAs('MIAF-DEPLOYMENT-GET', () => {
        expect(response.headers['content-type'] ?? '', 'P10: application/yaml').toMatch(/^application\/yaml\b/);
        expect(sameDigest(response.body, entry.digest), 'P10: the bytes hash to the digest').toBe(true);
      });
      await judgeAs('MIAF-DEPLOYMENT-CACHE', () => {
        expect(response.headers['cache-control'] ?? '', 'P10: Cache-Control: private, max-age=31536000, immutable').toMatch(YEAR_IMMUTABLE);
        expect((response.headers['vary'] ?? '').toLowerCase().split(/\s*,\s*/), 'P10: Vary: Accept-Encoding').toContain('accept-encoding');
      });
    },
  );

  test(
    'MIAF-DEPLOYMENT-404 a deployment URL with a digest the WFM cannot serve: 404',
    req('MIAF-DEPLOYMENT-404'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const entry = entryOf((await currentManifest(client)).manifest, a.deploymentId);
      const res = await client.api.getDeploymentYaml(
        `/api/v1/deployments/${a.deploymentId}/${digestOf(Buffer.from('not this deployment'))}`,
      );
      expect(res.status, `P10: 404 when the exact digest (not ${entry.digest}) cannot be served`).toBe(404);
    },
  );

  test(
    'MIAF-BUNDLE-GET MIAF-BUNDLE-CACHE a bundle: the vendor bundle type, the quoted digest as ETag, 304, immutable private caching',
    req('MIAF-BUNDLE-GET', 'MIAF-BUNDLE-CACHE'),
    async ({ device, hooks, profile }) => {
      const client = await device();
      await assign(client, hooks, await hostingDevice(client));
      const { bundle } = (await currentManifest(client)).manifest;
      requireThat('MIAF-DS-BUNDLE-NULL', bundle !== null && bundle !== undefined, 'with one deployment the manifest carries no bundle');
      expect(new URL(bundle!.url, 'https://wfm.invalid/api/v1/deployments').pathname, 'P10: /api/v1/bundles/{digest}').toBe(
        `/api/v1/bundles/${bundle!.digest}`,
      );
      const res = await client.api.getBundle(bundle!.url);
      await judgeAs('MIAF-BUNDLE-GET', async () => {
        expect(res.status, 'P10: 200').toBe(200);
        expect(res.headers['content-type'] ?? '', 'P10: application/vnd.<vendor>.bundle.v1+tar+gzip').toBe(
          mediaTypes(profile.vendor).deploymentBundle,
        );
        expect(res.headers['etag'], 'P10: the quoted digest as ETag').toBe(`"${bundle!.digest}"`);
        expect(
          (await client.api.getBundle(bundle!.url, { headers: { 'if-none-match': res.headers['etag']! } })).status,
          'P10: 304 to its ETag',
        ).toBe(304);
      });
      await judgeAs('MIAF-BUNDLE-CACHE', () =>
        expect(res.headers['cache-control'] ?? '', 'P10: Cache-Control: private, max-age=31536000, immutable').toMatch(YEAR_IMMUTABLE),
      );
    },
  );

  test(
    'MIAF-PROFILE-TYPE MIAF-REVISION-SEMVER MIAF-TIMEOUT-FORMAT the deployment YAML: type helm or compose, SemVer revisions without v, timeouts like 5m30s',
    req('MIAF-PROFILE-TYPE', 'MIAF-REVISION-SEMVER', 'MIAF-TIMEOUT-FORMAT'),
    async ({ device, hooks, ctx }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
      const type = doc.spec.deploymentProfile.type as string;
      // Errata of MIAF-PROFILE-TYPE: the seed edition's helm.v3 is the other edition's spelling, a warning unless strict.
      warnUnlessStrict(ctx.strictness, type === 'helm.v3', 'P10: deploymentProfile.type helm.v3 is the seed spelling; miaf writes helm');
      const components = doc.spec.deploymentProfile.components as { name: string; properties: { revision?: unknown; timeout?: unknown } }[];
      expectEach(
        [
          ...(['helm', 'compose', 'helm.v3'].includes(type)
            ? []
            : [{ id: 'MIAF-PROFILE-TYPE', message: `spec.deploymentProfile.type is ${JSON.stringify(type)}, not helm or compose` }]),
          ...components
            .filter((c) => !SEMVER.test(String(c.properties.revision)))
            .map((c) => ({
              id: 'MIAF-REVISION-SEMVER',
              message: `component ${c.name} revision ${JSON.stringify(c.properties.revision)} is not SemVer without v`,
            })),
          ...components
            .filter((c) => c.properties.timeout !== undefined && !/^\d+m\d+s$/.test(String(c.properties.timeout)))
            .map((c) => ({
              id: 'MIAF-TIMEOUT-FORMAT',
              message: `component ${c.name} timeout ${JSON.stringify(c.properties.timeout)} does not match ^\\d+m\\d+s$`,
            })),
        ],
        'P10: the deployment YAML of the miaf edition',
      );
    },
  );
});
