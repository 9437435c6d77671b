// interfaces.md §2.4, §2.4.1 (the WFM's side), §4.4 and §7 (status rows), with profiles.md P7 and P9:
// POST /api/v1/deployments/{deploymentId}/status for deployments assigned through the P5 hooks.
import { randomUUID } from 'node:crypto';
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { assign, currentManifest, deploymentYaml, hostingDevice, seeThruGateway } from '../fixtures/desired-state.ts';
import { NO_ERROR, accepted, statusReport } from '../fixtures/status.ts';
import { RESERVED_GATEWAY_CODES } from '../spec/rules/status-report.ts';
import { requireThat, setup } from '../fixtures/outcome.ts';

test.describe('§4.4 POST /api/v1/deployments/{deploymentId}/status', () => {
  test('STATUS-POST-201 the first report for a deployment creates its status: 201', req('STATUS-POST-201'), async ({ device, hooks }) => {
    const client = await device();
    const a = await assign(client, hooks, await hostingDevice(client));
    expect((await client.api.postStatus(a.deploymentId, statusReport(a, { state: 'installing' }))).status, '§4.4: 201 status created').toBe(
      201,
    );
  });

  test(
    'STATUS-POST-200 a second report for the same deployment updates its status: 200',
    req('STATUS-POST-200'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      await setup('STATUS-POST-201', '§4.4: the first report is accepted', async () =>
        expect(
          accepted((await client.api.postStatus(a.deploymentId, statusReport(a, { state: 'installing' }))).status),
          '§4.4: the first report is accepted (201)',
        ).toBe(true),
      );
      expect(
        (await client.api.postStatus(a.deploymentId, statusReport(a, { state: 'installed' }))).status,
        '§4.4: 200 status updated',
      ).toBe(200);
    },
  );

  test(
    'STATUS-POST-400 ERR-STATUS-400 ERR-NOT-JSON-400 a body that is not JSON at all: 400',
    req('STATUS-POST-400', 'ERR-STATUS-400', 'ERR-NOT-JSON-400'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const res = await client.api.postStatus(a.deploymentId, '{"deploymentId": "' + a.deploymentId);
      expect(res.status, '§4.4, §7, P9: a malformed body that is not JSON answers 400').toBe(400);
    },
  );

  test(
    'ERR-SCHEMA-INVALID-400-OR-422 a JSON report without components: 400 or 422',
    req('ERR-SCHEMA-INVALID-400-OR-422'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const { components: _missing, ...report } = statusReport(a);
      const res = await client.api.postStatus(a.deploymentId, JSON.stringify(report));
      expect([400, 422], 'P9: a JSON body that breaks the schema (components is required, §2.4) answers 400 or 422').toContain(res.status);
    },
  );
});

test.describe('§4.4 POST /api/v1/deployments/{deploymentId}/status: the reports it refuses', () => {
  const wrongLists: [string, (names: string[]) => string[]][] = [
    ['one component missing', (n) => n.slice(1)],
    ['a component the deployment does not define', (n) => [...n, 'not-in-the-manifest']],
    ['one component listed twice', (n) => [...n, n[0]!]],
  ];
  for (const [what, list] of wrongLists) {
    test(
      `STATUS-POST-422 ERR-STATUS-422 a components list with ${what}: 422 (or 400, P9)`,
      req('STATUS-POST-422', 'ERR-STATUS-422'),
      async ({ device, hooks }) => {
        const client = await device();
        const a = await assign(client, hooks, await hostingDevice(client));
        const report = statusReport(a, { components: list(a.components).map((name) => ({ name, state: 'installed' })) });
        const res = await client.api.postStatus(a.deploymentId, report);
        expect(
          [422, 400],
          `§2.4, §4.4: components holds exactly one entry per component of the deployment; ${what} is a semantic error`,
        ).toContain(res.status);
      },
    );
  }

  // Errata of STATUS-POST-422: failed heads the precedence list in every reading (P7), so a failed component under an
  // installed overall state contradicts §2.4 whatever the list means; §4.4 and §7 answer a semantic error 422.
  test(
    'STATUS-POST-422 ERR-STATUS-422 a report whose status.state contradicts its components (one failed, overall installed): 422 (or 400, P9)',
    req('STATUS-POST-422', 'ERR-STATUS-422'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const components = a.components.map((name, i) => ({ name, state: i === 0 ? ('failed' as const) : ('installed' as const) }));
      const report = { ...statusReport(a, { components }), status: { state: 'installed' as const } };
      const res = await client.api.postStatus(a.deploymentId, report);
      expect(
        [422, 400],
        `§2.4: status.state MUST reflect the most severe component state (failed); "installed" over [${components.map((c) => c.state).join(', ')}] is a semantic error (§4.4, §7: 422)`,
      ).toContain(res.status);
    },
  );

  test(
    'STATUS-POST-422 a report for a deploymentId the WFM never assigned is refused (403, 404 or 422)',
    req('STATUS-POST-422'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = { ...(await assign(client, hooks, await hostingDevice(client))), deploymentId: randomUUID() };
      const res = await client.api.postStatus(a.deploymentId, statusReport(a));
      expect([403, 404, 422], '§4.4 (errata): a report on a deployment never assigned is never accepted').toContain(res.status);
    },
  );

  test(
    'STATUS-POST-403 ERR-STATUS-403 AUTH-RETIRED-CLIENT-403 a report after the client is retired: 403',
    req('STATUS-POST-403', 'ERR-STATUS-403', 'AUTH-RETIRED-CLIENT-403'),
    async ({ device, hooks }) => {
      hooks.require('retireClient');
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      await hooks.run('retireClient', { clientId: client.clientId });
      const res = await client.api.postStatus(a.deploymentId, statusReport(a));
      expect(res.status, '§4.4, §5: a report of a retired client is not authorized by the WFM local policy: 403').toBe(403);
    },
  );
});

test.describe('§2.4 Deployment status report: shapes the WFM accepts (P7)', () => {
  test('STATUS-OBJECT status as one object {state, error} is accepted', req('STATUS-OBJECT'), async ({ device, hooks }) => {
    const client = await device();
    const a = await assign(client, hooks, await hostingDevice(client));
    const { doc } = await deploymentYaml(client, (await currentManifest(client)).manifest, a.deploymentId);
    const components = a.components.map((name) => ({
      name,
      state: 'failed' as const,
      error: { code: 'E_PULL', source: name, message: 'image pull failed' },
    }));
    const report = statusReport(a, {
      components,
      statusError: { code: 'E_PULL', source: doc.metadata.name, message: 'image pull failed' },
    });
    const res = await client.api.postStatus(a.deploymentId, report);
    expect(accepted(res.status), '§2.4, P7: status is one object with state and error; the WFM accepts it (200/201)').toBe(true);
  });

  test(
    'STATUS-ERROR-ABSENT-ACCEPTED a failed report that leaves every error out is accepted',
    req('STATUS-ERROR-ABSENT-ACCEPTED'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const res = await client.api.postStatus(a.deploymentId, statusReport(a, { state: 'failed' }));
      expect(accepted(res.status), '§2.4: status.error and components[].error are optional (200/201)').toBe(true);
    },
  );

  test(
    'STATUS-ERROR-EMPTY-ACCEPTED errors of three empty strings (the payload shape for no error) are accepted',
    req('STATUS-ERROR-EMPTY-ACCEPTED'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const components = a.components.map((name) => ({ name, state: 'installed' as const, error: { ...NO_ERROR } }));
      const res = await client.api.postStatus(a.deploymentId, statusReport(a, { components, statusError: { ...NO_ERROR } }));
      expect(accepted(res.status), '§2.4, P7: empty code, source and message mean no error; the WFM accepts them (200/201)').toBe(true);
    },
  );

  test(
    'STATUS-ERROR-CODES-IMPL an implementation-specific error code the WFM cannot know is accepted',
    req('STATUS-ERROR-CODES-IMPL'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const components = a.components.map((name) => ({
        name,
        state: 'failed' as const,
        error: { code: 'ACME-E4711', source: name, message: 'vendor code' },
      }));
      const res = await client.api.postStatus(a.deploymentId, statusReport(a, { components }));
      expect(accepted(res.status), '§2.4 rule 4: most codes are implementation-specific; a WFM may accept codes it does not know').toBe(
        true,
      );
    },
  );

  test(
    'STATUS-RESERVED-ACCEPTED reports with reserved codes 101, 102 and 103 and the see-thru gateway as source are accepted',
    req('STATUS-RESERVED-ACCEPTED'),
    async ({ device, hooks }) => {
      const client = await device();
      const { gateway, child } = await seeThruGateway(client);
      const a = await assign(client, hooks, child);
      for (const [code, message] of Object.entries(RESERVED_GATEWAY_CODES)) {
        const components = a.components.map((name) => ({ name, state: 'failed' as const }));
        const report = statusReport(a, { components, deviceId: child, statusError: { code, source: gateway, message } });
        const res = await client.api.postStatus(a.deploymentId, report);
        expect(accepted(res.status), `§2.4: a gateway's reserved code ${code} with the gateway id "${gateway}" as source is accepted`).toBe(
          true,
        );
      }
    },
  );

  test(
    'STATUS-EXTRA-FIELDS-ACCEPTED a report that also carries apiVersion and kind DeploymentStatusManifest is accepted',
    req('STATUS-EXTRA-FIELDS-ACCEPTED'),
    async ({ device, hooks, profile }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const report = {
        apiVersion: `deployment.${profile.vendor}.org/v1alpha1`,
        kind: 'DeploymentStatusManifest' as const,
        ...statusReport(a),
      };
      expect(
        accepted((await client.api.postStatus(a.deploymentId, report)).status),
        "P7: the standard's apiVersion and kind are accepted (200/201)",
      ).toBe(true);
    },
  );
});

test.describe('§2.4.1 adoptedManifestVersion: what the WFM accepts', () => {
  test(
    'AMV-OLDER-ACCEPTED a report whose adoptedManifestVersion is older than the latest manifestVersion is accepted',
    req('AMV-OLDER-ACCEPTED'),
    async ({ device, hooks }) => {
      const client = await device();
      const id = await hostingDevice(client);
      const older = await assign(client, hooks, id);
      const newer = await assign(client, hooks, id, ['cache']);
      requireThat(
        'DS-VERSION-STRICTLY-INCREASING',
        newer.manifestVersion > older.manifestVersion,
        `the second assignment published manifestVersion ${newer.manifestVersion}, not above ${older.manifestVersion}`,
      );
      const res = await client.api.postStatus(older.deploymentId, statusReport(older, { state: 'installing' }));
      expect(
        accepted(res.status),
        `§2.4.1 rule 3: a client on the older revision ${older.manifestVersion} reports it; the WFM accepts it (200/201)`,
      ).toBe(true);
    },
  );
});

test.describe('P10 edition miaf: POST /api/v1/deployments/{deploymentId}/status', () => {
  test('MIAF-STATUS-POST a valid report answers 201, the next one 200', req('MIAF-STATUS-POST'), async ({ device, hooks }) => {
    const client = await device();
    const a = await assign(client, hooks, await hostingDevice(client));
    const answers = [
      await client.api.postStatus(a.deploymentId, statusReport(a, { state: 'installing' })),
      await client.api.postStatus(a.deploymentId, statusReport(a)),
    ];
    expect(
      answers.map((r) => r.status),
      'P10: 201 then 200',
    ).toEqual([201, 200]);
  });

  test(
    "MIAF-STATUS-REQUIRED a report without deploymentId, adoptedManifestVersion, status.state, or a component's name or state is refused (400 or 422)",
    req('MIAF-STATUS-REQUIRED'),
    async ({ device, hooks }) => {
      const client = await device();
      const a = await assign(client, hooks, await hostingDevice(client));
      const cuts: [string, (r: Record<string, any>) => void][] = [
        ['deploymentId', (r) => delete r.deploymentId],
        ['adoptedManifestVersion', (r) => delete r.adoptedManifestVersion],
        ['status.state', (r) => delete r.status.state],
        ['components[].name', (r) => delete r.components[0].name],
        ['components[].state', (r) => delete r.components[0].state],
      ];
      for (const [field, cut] of cuts) {
        const report = structuredClone(statusReport(a)) as unknown as Record<string, any>;
        cut(report);
        const { status } = await client.api.postStatus(a.deploymentId, report as never);
        expect([400, 422], `P10: ${field} is required, got ${status}`).toContain(status);
      }
    },
  );
});
