// Persona device, interfaces.md §2.4: the status reports a see-thru gateway sends on behalf of the devices behind it:
// their full hierarchical deviceId, and the reserved codes 101-103 (source: the gateway) when it cannot place a deployment.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { capabilitiesDeviceId, isCapabilitiesPut, type ClientUnderTest } from '../../fixtures/client-under-test.ts';
import { deploymentNameOf, giveDeployment, sampleComponent, untilSettled, type Report } from '../../fixtures/device-deployments.ts';
import { skipIf } from '../../fixtures/outcome.ts';
import { RESERVED_GATEWAY_CODES, deviceIdFindings, errorSourceFindings, isNoError } from '../../spec/rules/status-report.ts';
import { isDescendantOf } from '../../spec/rules/device-id.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';

test.describe('§2.4 reports on behalf of a device behind a see-thru gateway', () => {
  test(
    'STATUS-DEVICEID-CHILD a deployment for a device behind the gateway is reported with deviceId, the full hierarchy',
    req('STATUS-DEVICEID-CHILD'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await sampleComponent(ctx, caPems, profile.vendor);
      const client = await seeThruGateway(clientUnderTest);
      const { deploymentId, deviceId: child } = await giveDeployment(client, hooks, [component], 'child');
      const reports = await untilSettled(client, deploymentId);
      const findings = reports.flatMap(({ report }) =>
        deviceIdFindings(report, { reportingDeviceId: child.split('/')[0]!, targetDeviceId: child }).map((f) => f.message),
      );
      expect(findings, `§2.4: deviceId "${child}" on every report of the child's deployment`).toEqual([]);
      expect(
        reports.every(({ report }) => report.deviceId === child),
        `§2.4: deviceId is the child's full id ${child}`,
      ).toBe(true);
    },
  );

  test(
    'STATUS-RESERVED-101 STATUS-RESERVED-SOURCE STATUS-ERROR-SOURCE-GATEWAY a deployment for a device the gateway does not know fails with reserved code 101, its source the gateway',
    req('STATUS-RESERVED-101', 'STATUS-RESERVED-SOURCE', 'STATUS-ERROR-SOURCE-GATEWAY'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await sampleComponent(ctx, caPems, profile.vendor);
      const client = await seeThruGateway(clientUnderTest);
      const { deploymentId, deviceId: unknown } = await giveDeployment(client, hooks, [component], 'unknown-child');
      const reports = await untilSettled(client, deploymentId);
      expectEach(
        await reservedCodeFindings(
          client,
          reports,
          deploymentId,
          '101',
          unknown.split('/')[0]!,
          `a device it never registered (${unknown})`,
        ),
        `§2.4: code 101 with source "${unknown.split('/')[0]}"`,
      );
    },
  );

  test(
    'STATUS-RESERVED-102 STATUS-RESERVED-SOURCE a deployment for a registered device the gateway cannot reach fails with reserved code 102, its source the gateway',
    req('STATUS-RESERVED-102', 'STATUS-RESERVED-SOURCE'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      hooks.require('disconnectChild');
      const component = await sampleComponent(ctx, caPems, profile.vendor);
      const client = await seeThruGateway(clientUnderTest);
      const { deploymentId, deviceId: child } = await giveDeployment(client, hooks, [component], 'child', {
        before: (id) => client.disconnectChild(id),
      });
      const reports = await untilSettled(client, deploymentId);
      expectEach(
        await reservedCodeFindings(
          client,
          reports,
          deploymentId,
          '102',
          child.split('/')[0]!,
          `a device whose link is down (${child}, hook disconnectChild)`,
        ),
        `§2.4: code 102 with source "${child.split('/')[0]}"`,
      );
    },
  );

  test(
    'STATUS-RESERVED-103 STATUS-RESERVED-SOURCE a deployment for <gateway>/* is placed on a device behind the gateway, or fails with reserved code 103, its source the gateway',
    req('STATUS-RESERVED-103', 'STATUS-RESERVED-SOURCE'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await sampleComponent(ctx, caPems, profile.vendor);
      const client = await seeThruGateway(clientUnderTest);
      const { deploymentId, deviceId: any } = await giveDeployment(client, hooks, [component], 'any-child');
      const gateway = any.slice(0, -2);
      const reports = await untilSettled(client, deploymentId);
      // A report naming a device behind the gateway shows the gateway chose one: 103 is then not due (P4: `/*` lets it choose).
      const chosen = reports
        .map(({ report }) => report?.deviceId)
        .find((id) => typeof id === 'string' && isDescendantOf(id, gateway) && !id.endsWith('/*'));
      if (chosen !== undefined) {
        test.info().annotations.push({
          type: 'note',
          description: `the gateway placed ${any} on ${chosen}: it can select autonomously, so code 103 is not due`,
        });
        const registered = (await client.observe()).exchanges
          .filter((x) => isCapabilitiesPut(x) && x.status < 300)
          .map(capabilitiesDeviceId);
        expect(registered, `P4: the device the gateway chose for ${any} is one it registered behind it`).toContain(chosen);
        return;
      }
      expectEach(
        await reservedCodeFindings(client, reports, deploymentId, '103', gateway, `${any}, naming no device it chose`),
        `§2.4: placed on a device behind ${gateway}, or code 103 with source "${gateway}"`,
      );
    },
  );
});

/** The client under test as a see-thru gateway; a skip (with the reason) when it says it is another kind. */
async function seeThruGateway(clientUnderTest: (o: { kind: 'see-thru-gateway' }) => Promise<ClientUnderTest>): Promise<ClientUnderTest> {
  const client = await clientUnderTest({ kind: 'see-thru-gateway' });
  skipIf(
    client.kind !== undefined && client.kind !== 'see-thru-gateway',
    'unsupported',
    `the client under test is no see-thru gateway (startClient answered kind ${client.kind})`,
  );
  return client;
}

/**
 * §2.4 reserved gateway codes: the deployment for `what` is reported failed with `code` from the gateway. A missing
 * code is the code's finding; a reserved code from another source is both source rules' (rule 4 and rule 1 agree).
 */
async function reservedCodeFindings(
  client: ClientUnderTest,
  reports: Report[],
  deploymentId: string,
  code: '101' | '102' | '103',
  gateway: string,
  what: string,
): Promise<TaggedFinding[]> {
  const id = `STATUS-RESERVED-${code}`;
  const failed = reports.filter(({ report }) => report.status?.state === 'failed');
  if (failed.length === 0)
    return [
      {
        id,
        message: `the gateway cannot place the deployment on ${what}, yet never reports it failed (states: ${reports.map(({ report }) => report.status?.state).join(', ')})`,
      },
    ];
  const errors = failed
    .flatMap(({ report }) => [report.status.error, ...(report.components ?? []).map((c) => c.error)])
    .filter((e) => e != null && !isNoError(e));
  const deploymentName = deploymentNameOf((await client.observe()).exchanges, deploymentId) ?? deploymentId;
  const sources = failed.flatMap(({ report }) =>
    errorSourceFindings(report, { deploymentName, gatewayId: gateway }).filter((f) => f.rule === 'reserved-code-source'),
  );
  return [
    ...(errors.some((e) => e!.code === code)
      ? []
      : [
          {
            id,
            message: `${what}: no error with code ${code} (${RESERVED_GATEWAY_CODES[code]}); got ${errors.map((e) => `${e!.code}@${e!.source}`).join(', ') || 'no error'}`,
          },
        ]),
    ...sources.flatMap((f) =>
      (code === '101' ? ['STATUS-RESERVED-SOURCE', 'STATUS-ERROR-SOURCE-GATEWAY'] : ['STATUS-RESERVED-SOURCE']).map((rid) => ({
        id: rid,
        message: `${f.path ?? ''}: ${f.message}`,
      })),
    ),
  ];
}
