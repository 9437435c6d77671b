// profiles.md P4 (interfaces.md §4.4 leaves it "not shown"): what a state manifest points at, its deployment YAMLs and
// its bundle, served to its own client only. The manifest itself is desired-state.spec.ts.
import { parse } from 'yaml';
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { assign, currentManifest, deploymentYaml, entryOf, hostingDevice, seeThruGateway } from '../fixtures/desired-state.ts';
import { requireV1DesiredState, sameDigest } from '../fixtures/desired-state-v1.ts';
import { digestOf } from '../spec/rules/desired-state.ts';
import { readTarGz } from '../spec/rules/tar-read.ts';
import { requireThat } from '../fixtures/outcome.ts';

test.beforeEach(requireV1DesiredState);

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
});

test.describe('P4 the ApplicationDeployment YAML: target device, profile type and components', () => {
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
