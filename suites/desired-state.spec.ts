// profiles.md P4 (interfaces.md §4.4 leaves it "not shown"), with §2.4.1 rule 7 and §9: the state manifest a client
// fetches, for deployments assigned and removed through the P5 hooks. Its deployment YAMLs and bundle are
// desired-state-documents.spec.ts; edition miaf's GET /api/v1/deployments is desired-state-miaf.spec.ts.
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { assign, currentManifest, hostingDevice, remove } from '../fixtures/desired-state.ts';
import { requireV1DesiredState, sameDigest } from '../fixtures/desired-state-v1.ts';
import { judgeStateManifestSequence, digestOf } from '../spec/rules/desired-state.ts';
import { checkVersionSequence, manifestVersionFindings } from '../spec/rules/manifest-version.ts';
import { mediaTypes } from '../spec/media-types.ts';
import { validate } from '../spec/schemas/index.ts';
import type { StateManifest } from '../spec/types.ts';
import { requireThat } from '../fixtures/outcome.ts';

/** P4: `<algorithm>:<lowercase hex>`; the kit knows sha256 and sha512. */
const DIGEST = /^(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$/;

/** The opaque tag of an ETag (`"x"` or `W/"x"`); a bare value is read as the tag itself. */
function opaque(etag: string): string {
  return /^(?:W\/)?"([^"]*)"$/.exec(etag.trim())?.[1] ?? etag.trim();
}

test.beforeEach(requireV1DesiredState);

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
});

test.describe('P4 state manifest: manifestVersion and bundle', () => {
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
});

test.describe('P4 state manifest: one entry per deployment, digests and URLs', () => {
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
