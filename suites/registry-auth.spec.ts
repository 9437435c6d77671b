// interfaces.md §5, application registry row: a token from an authentication service, validated by the registry with
// access control on every call, and requested by the WFM for its pulls. Token endpoint and format are not shown; the
// kit reads the OCI distribution token flow (errata of AUTH-REGISTRY-TOKEN). `<ns>/protected/...` is the repository
// the kit expects to need a token: a registry that serves it anonymously has no access control to show.
import { randomBytes } from 'node:crypto';
import { test as registryTest, expect, buildApp } from '../fixtures/registry.ts';
import { test as watchedTest, WATCHED_TOKEN_PATH } from '../fixtures/watched-registry.ts';
import { req } from '../fixtures/req.ts';
import { pushArtifact } from '../simulators/publish/push.ts';
import { RegistryClient } from '../simulators/registry-client.ts';
import { bearerChallenge } from '../protocol/header-params.ts';
import type { Transport } from '../simulators/transport/types.ts';
import { tokenRules } from '../spec/rules/wfm-retrieval.ts';

/** A token from the realm of `challenge` for `scope` (anonymous), or a failed expectation naming the answer. */
async function tokenFor(transport: Transport, challenge: Record<string, string>, scope: string): Promise<string> {
  const realm = new URL(challenge['realm']!);
  if (challenge['service'] !== undefined) realm.searchParams.set('service', challenge['service']);
  realm.searchParams.set('scope', scope);
  const res = await transport.request({ method: 'GET', url: realm.href });
  expect(res.status, `§5: the authentication service ${realm.origin}${realm.pathname} issues a token for ${scope}`).toBe(200);
  const doc = res.json() as { token?: unknown; access_token?: unknown } | null;
  const token = doc?.token ?? doc?.access_token;
  expect(typeof token === 'string' && token !== '', `§5: the answer carries a token: ${res.text().slice(0, 200)}`).toBe(true);
  return token as string;
}

registryTest.describe('§5 the registry validates tokens and enforces access control', () => {
  registryTest(
    'AUTH-REGISTRY-TOKEN no token is 401 with a Bearer challenge, a token for the repository is 200, a token for another repository is refused',
    req('AUTH-REGISTRY-TOKEN'),
    async ({ registry, ctx, profile }) => {
      // The registry fixture's transport: the test's evidence, closed by the fixture.
      const { transport } = registry;
      const ns = ctx.targets.registryRepository ?? 'wfmck/conformance';
      const name = `${ns}/protected/hello-app`;
      // The kit's client follows the registry's challenge to push, as a developer with its own token would.
      const pkg = await buildApp(`1.0.0-auth.${randomBytes(4).toString('hex')}`, registry.compose.reference, profile.vendor);
      await pushArtifact(new RegistryClient({ transport, baseUrl: registry.url }), name, pkg);
      const tags = `${registry.url}/v2/${name}/tags/list`;

      const anonymous = await transport.request({ method: 'GET', url: tags });
      expect(anonymous.status, `§5: GET /v2/${name}/tags/list without a token is refused with 401`).toBe(401);
      const challenge = bearerChallenge(anonymous.headers['www-authenticate']);
      expect(
        challenge?.['realm'],
        `§5: the 401 carries WWW-Authenticate: Bearer realm=..., got ${JSON.stringify(anonymous.headers['www-authenticate'])}`,
      ).toBeTruthy();

      const own = await tokenFor(transport, challenge!, `repository:${name}:pull`);
      const allowed = await transport.request({ method: 'GET', url: tags, headers: { authorization: `Bearer ${own}` } });
      expect(allowed.status, `§5: a token for repository:${name}:pull opens GET /v2/${name}/tags/list`).toBe(200);

      const other = await tokenFor(transport, challenge!, `repository:${registry.app.repository}:pull`);
      const denied = await transport.request({ method: 'GET', url: tags, headers: { authorization: `Bearer ${other}` } });
      expect(
        [401, 403],
        `§5: a token for repository:${registry.app.repository}:pull does not open ${name} (got ${denied.status})`,
      ).toContain(denied.status);
    },
  );
});

watchedTest.describe('§5 the WFM uses a token on registry calls', () => {
  watchedTest(
    'AUTH-WFM-REGISTRY-TOKEN the WFM requests a token from the authentication service and pulls with it',
    req('AUTH-WFM-REGISTRY-TOKEN'),
    async ({ retrieval }) => {
      const pkg = await retrieval.publish('protected/token');
      const { pulls, outcome } = await retrieval.assign(pkg);
      const trail = pulls
        .map((p) => `${p.method} ${p.path}${p.query ? `?${p.query}` : ''} ${p.status}${p.authorization ? ' (Bearer)' : ''}`)
        .join('\n');
      const pulled = {
        name: pkg.name,
        version: pkg.version,
        manifestDigest: pkg.manifestDigest,
        layerDigests: pkg.manifest.layers.map((l) => l.digest),
      };
      expect(
        tokenRules(pulls, pulled, WATCHED_TOKEN_PATH),
        `§5: the requests the registry and its authentication service received:\n${trail}`,
      ).toEqual([]);
      expect(outcome, `P5: assignDeployment of ${pkg.reference}:${pkg.version}, a repository that needs a token, succeeds`).toHaveProperty(
        'deploymentId',
      );
    },
  );
});
