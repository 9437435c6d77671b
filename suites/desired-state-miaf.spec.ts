// profiles.md P10, edition miaf: GET /api/v1/deployments (the caller's own state manifest), its deployment YAMLs and
// bundles, with their caching and the miaf spelling of the deployment YAML. The seed edition's P4 is desired-state.spec.ts.
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { expectEach, judgeAs } from '../fixtures/expect-each.ts';
import { assign, currentManifest, deploymentYaml, entryOf, hostingDevice } from '../fixtures/desired-state.ts';
import { requireV1DesiredState, sameDigest } from '../fixtures/desired-state-v1.ts';
import { digestOf } from '../spec/rules/desired-state.ts';
import { mediaTypes } from '../spec/media-types.ts';
import { validate } from '../spec/schemas/index.ts';
import { problemName } from '../fixtures/problems.ts';
import { warnUnlessStrict } from '../fixtures/errata.ts';
import { requireThat } from '../fixtures/outcome.ts';

const YEAR_IMMUTABLE = /^private,\s*max-age=31536000,\s*immutable$/i;
/** P10: a revision is SemVer without a leading v, build metadata after `_` instead of `+`. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(_[0-9A-Za-z.-]+)?$/;

test.beforeEach(requireV1DesiredState);

test.describe("P10 edition miaf: GET /api/v1/deployments, the caller's state manifest", () => {
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
});

test.describe('P10 edition miaf: GET a deployment YAML', () => {
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

test.describe('P10 edition miaf: GET a bundle', () => {
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
});
