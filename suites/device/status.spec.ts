// Persona device, interfaces.md §2.4 and §2.4.1 (with P4, P7): the status reports of a client that is given a
// deployment of two compose components (published to the kit's registry) through the desired state.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { capabilitiesDeviceId, isCapabilitiesPut, isManifestPoll, pathOf, type ClientUnderTest } from '../../fixtures/client-under-test.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';
import {
  REPORTS_WHILE_APPLYING,
  deploymentNameOf,
  firstManifestVersion,
  giveDeployment,
  reportsOf,
  sampleComponent,
  servedRevisions,
  untilSettled,
  updateDeployment,
  type Report,
} from '../../fixtures/device-deployments.ts';
import { requireThat, skipIf } from '../../fixtures/outcome.ts';
import type { Hooks } from '../../fixtures/wfmck.ts';
import type { RunContext } from '../../run/contract/context.ts';
import {
  RESERVED_GATEWAY_CODES,
  componentsFindings,
  deviceIdFindings,
  errorSourceFindings,
  isNoError,
} from '../../spec/rules/status-report.ts';
import { isDescendantOf } from '../../spec/rules/device-id.ts';
import { judgeOverallState } from '../../spec/rules/status-precedence.ts';
import { DEPLOYMENT_STATES, type DeploymentState } from '../../spec/types.ts';
import { warnUnlessStrict } from '../../fixtures/errata.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';

const COMPONENTS = ['web', 'worker'];
/** The component the second revision adds: a report that lists it is of that revision. */
const ADDED = 'cache';

/** The client given a deployment of COMPONENTS, once it settled: the start of every revision and removal check. */
async function settledDeployment(client: ClientUnderTest, ctx: RunContext, caPems: string[], hooks: Hooks, vendor: string) {
  const component = await sampleComponent(ctx, caPems, vendor);
  const given = await giveDeployment(
    client,
    hooks,
    COMPONENTS.map((name) => ({ ...component, name })),
  );
  await untilSettled(client, given.deploymentId);
  return { client, component, given };
}

interface Given {
  deploymentId: string;
  /** manifestVersion of the first state manifest that carried it. */
  version: number;
  reports: Report[];
}

/** Gives the client's device a two-component deployment and waits for it to settle (installed or failed). */
async function deploy(client: ClientUnderTest, ctx: RunContext, caPems: string[], hooks: Hooks, vendor: string): Promise<Given> {
  const component = await sampleComponent(ctx, caPems, vendor);
  const { deploymentId } = await giveDeployment(
    client,
    hooks,
    COMPONENTS.map((name) => ({ ...component, name })),
  );
  const reports = await untilSettled(client, deploymentId);
  const version = firstManifestVersion((await client.observe()).exchanges, deploymentId);
  requireThat(
    REPORTS_WHILE_APPLYING,
    version !== undefined,
    'the client reported on the deployment without fetching a state manifest that carries it',
  );
  return { deploymentId, version: version!, reports };
}

test.describe('§2.4 the status reports of a deployment', () => {
  test(
    "STATUS-REPORT-WHILE-APPLYING given a new desired state, the client reports the deployment's status as it applies it",
    req('STATUS-REPORT-WHILE-APPLYING'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const given = await deploy(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      expect(given.reports.length, '§1: reports while applying (the last one settled)').toBeGreaterThan(0);
    },
  );

  test(
    'STATUS-DEPLOYMENTID-REQUIRED STATUS-PATH-DEPLOYMENTID STATUS-STATUS-REQUIRED every report carries deploymentId (the one of its path) and status',
    req('STATUS-DEPLOYMENTID-REQUIRED', 'STATUS-PATH-DEPLOYMENTID', 'STATUS-STATUS-REQUIRED'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const given = await deploy(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      const findings = given.reports.flatMap(({ report, exchange }): TaggedFinding[] => [
        ...(report?.deploymentId === undefined
          ? [{ id: 'STATUS-DEPLOYMENTID-REQUIRED', message: `POST ${pathOf(exchange)}: no deploymentId` }]
          : report.deploymentId !== given.deploymentId
            ? [
                {
                  id: 'STATUS-PATH-DEPLOYMENTID',
                  message: `POST ${pathOf(exchange)}: deploymentId ${JSON.stringify(report.deploymentId)} is not the path's ${given.deploymentId}`,
                },
              ]
            : []),
        ...(report?.status ? [] : [{ id: 'STATUS-STATUS-REQUIRED', message: `POST ${pathOf(exchange)}: no status` }]),
      ]);
      expectEach(findings, "§2.4: deploymentId (the path's) and status on every report");
    },
  );

  test(
    'STATUS-COMPONENTS-ONE-PER STATUS-COMPONENT-NAME components holds exactly one entry per component of the deployment, by its name',
    req('STATUS-COMPONENTS-ONE-PER', 'STATUS-COMPONENT-NAME'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const given = await deploy(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      // A name spelled otherwise than the deployment's (case) is STATUS-COMPONENT-NAME's finding; entries are counted by name folded.
      const findings = given.reports.flatMap(({ report, exchange }): TaggedFinding[] => {
        const names = (report.components ?? []).map((c) => String(c?.name));
        const folded = { ...report, components: (report.components ?? []).map((c) => ({ ...c, name: String(c?.name).toLowerCase() })) };
        return [
          ...componentsFindings(folded, COMPONENTS).map((f) => ({
            id: 'STATUS-COMPONENTS-ONE-PER',
            message: `report #${exchange.seq}: ${f.message}`,
          })),
          ...names
            .filter((n) => !COMPONENTS.includes(n) && COMPONENTS.includes(n.toLowerCase()))
            .map((n) => ({
              id: 'STATUS-COMPONENT-NAME',
              message: `report #${exchange.seq}: component "${n}" is "${n.toLowerCase()}" in the deployment, the name it inherits`,
            })),
        ];
      });
      expectEach(findings, `§2.4: one entry each for ${COMPONENTS.join(', ')}, by its name`);
    },
  );

  test(
    'STATUS-STATE-VALUES STATUS-COMPONENT-STATE-VALUES every state is one of pending, installing, installed, removing, removed, failed',
    req('STATUS-STATE-VALUES', 'STATUS-COMPONENT-STATE-VALUES'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const given = await deploy(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      const known = (s: unknown) => (DEPLOYMENT_STATES as readonly unknown[]).includes(s);
      const findings = given.reports.flatMap(({ report }): TaggedFinding[] => [
        ...(known((report.status as { state?: unknown })?.state)
          ? []
          : [{ id: 'STATUS-STATE-VALUES', message: `status.state ${JSON.stringify((report.status as { state?: unknown })?.state)}` }]),
        ...(report.components ?? [])
          .filter((c) => !known(c.state))
          .map((c) => ({ id: 'STATUS-COMPONENT-STATE-VALUES', message: `component ${c.name}: state ${JSON.stringify(c.state)}` })),
      ]);
      expectEach(findings, '§2.4: the six states');
    },
  );

  test(
    "STATUS-PRECEDENCE STATUS-LIFE-EACH-REPORT every report's status.state is the most severe of its component states (P7; a case the list leaves open never fails)",
    req('STATUS-PRECEDENCE', 'STATUS-LIFE-EACH-REPORT'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const given = await deploy(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      const judged = given.reports.map(({ report }) => ({
        report,
        j: judgeOverallState(
          report.status.state as DeploymentState,
          report.components.map((c) => c.state),
        ),
      }));
      warnUnlessStrict(
        ctx.strictness,
        judged.some(({ j }) => j.verdict === 'ambiguous'),
        judged
          .filter(({ j }) => j.verdict === 'ambiguous')
          .map(({ j }) => j.reason)
          .join('; '),
      );
      expect(
        judged
          .filter(({ j }) => j.verdict === 'inconsistent')
          .map(({ report, j }) => `${report.status.state} for [${report.components.map((c) => c.state).join(', ')}]: ${j.reason}`),
        'P7: the precedence rule',
      ).toEqual([]);
    },
  );

  test(
    'AMV-PRESENT AMV-NO-RESERVED-VALUE AMV-FIRST-INSTALL every report carries adoptedManifestVersion, never 0, the version of the first manifest that carried the deployment',
    req('AMV-PRESENT', 'AMV-NO-RESERVED-VALUE', 'AMV-FIRST-INSTALL'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const given = await deploy(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      const findings = given.reports
        .map(({ report }) => report.adoptedManifestVersion)
        .flatMap((v): TaggedFinding[] => {
          if (v === undefined || v === null) return [{ id: 'AMV-PRESENT', message: 'a report without adoptedManifestVersion' }];
          if (!(typeof v === 'number' && v >= 1))
            return [
              {
                id: 'AMV-NO-RESERVED-VALUE',
                message: `adoptedManifestVersion ${JSON.stringify(v)}: no reserved "none before" value; manifest versions start at 1`,
              },
            ];
          return v === given.version
            ? []
            : [
                {
                  id: 'AMV-FIRST-INSTALL',
                  message: `adoptedManifestVersion ${v}, not ${given.version}, the manifest that first carried the deployment`,
                },
              ];
        });
      expectEach(findings, '§2.4.1: every report of a first install adopts the manifest that carried it');
    },
  );
});

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

/** A report of the second revision lists its added component (name compared case-insensitively: spelling is STATUS-COMPONENT-NAME's). */
function ofSecondRevision(r: Report): boolean {
  return (r.report?.components ?? []).some((c) => String(c?.name).toLowerCase() === ADDED);
}

/**
 * §2.4.1 rules 3 and 4 over the reports of a deployment moved from revision 1 to revision 2 (it lists ADDED): each
 * report carries the version of the revision it describes, the older one until the newer is held and applied. Reports
 * before `afterSeq` are left out (a restart: what came before it is judged elsewhere).
 */
function revisionFindings(xs: RecordedExchange[], deploymentId: string, afterSeq = 0): { findings: TaggedFinding[]; note: string } {
  const served = servedRevisions(xs, deploymentId);
  const first = served[0]!;
  const second = served.find((r) => r.digest !== first.digest);
  requireThat(
    REPORTS_WHILE_APPLYING,
    second !== undefined,
    'the client reported on the second revision without fetching a state manifest that carries it',
  );
  // The client holds revision 2 once the WFM has answered its YAML (or a bundle, which holds every YAML): no report
  // recorded before that answer can come from a client that began applying it (§2.4.1 rules 1 and 4).
  const heldAt =
    xs.find(
      (x) =>
        x.seq > second!.seq &&
        x.method === 'GET' &&
        x.status === 200 &&
        (pathOf(x).includes(`/deployments/${deploymentId}/${second!.digest}`) || pathOf(x).includes('/bundles/')),
    )?.seq ?? Infinity;
  const note = `revision 1 from manifestVersion ${first.version}, revision 2 from ${second!.version} (fetched at exchange #${second!.seq}, held from #${heldAt})`;
  const findings = reportsOf(xs, deploymentId)
    .filter(({ exchange }) => exchange.seq > afterSeq)
    .flatMap(({ report, exchange }): TaggedFinding[] => {
      const v = report?.adoptedManifestVersion;
      // An absent or reserved value is AMV-PRESENT's and AMV-NO-RESERVED-VALUE's finding (their own test).
      if (typeof v !== 'number' || v < 1) return [];
      const where = `report #${exchange.seq} (${(report.components ?? []).map((c) => c?.name).join(', ')})`;
      if (ofSecondRevision({ report, exchange })) {
        if (v === second!.version) return [];
        if (v === first.version)
          return [
            {
              id: 'AMV-ADVANCES-ON-APPLY',
              message: `${where} describes revision 2 but carries ${v}, the version of revision 1 it replaced`,
            },
          ];
        return [{ id: 'AMV-EQUALS-HELD', message: `${where} describes revision 2 (manifestVersion ${second!.version}) but carries ${v}` }];
      }
      if (v === first.version) return [];
      if (v === second!.version && exchange.seq > second!.seq) {
        return [
          {
            id: 'AMV-OLDER-REPORTS-OLDER',
            message: `${where} describes revision 1, still running, but carries ${v}, the version of revision 2 it had only fetched`,
          },
          ...(exchange.seq < heldAt
            ? [
                {
                  id: 'AMV-FETCH-DOES-NOT-ADVANCE',
                  message: `${where} carries ${v} after fetching manifest ${v} (#${second!.seq}) and before it held revision 2 (#${heldAt})`,
                },
              ]
            : []),
        ];
      }
      return [{ id: 'AMV-EQUALS-HELD', message: `${where} describes revision 1 (manifestVersion ${first.version}) but carries ${v}` }];
    });
  return { findings, note };
}

/** Every exchange once the client settled a report of the second revision (after `afterSeq`). */
function settledSecondRevision(client: ClientUnderTest, deploymentId: string, afterSeq = 0): Promise<RecordedExchange[]> {
  return client.waitFor(
    `a settled report of the second revision (it lists ${ADDED})`,
    (all) => {
      const settled = reportsOf(
        all.filter((x) => x.seq > afterSeq),
        deploymentId,
      ).some((r) => ofSecondRevision(r) && ['installed', 'failed'].includes(String(r.report?.status?.state)));
      return settled ? all : undefined;
    },
    40_000,
    REPORTS_WHILE_APPLYING,
  );
}

test.describe('§2.4.1 a deployment updated to a new revision', () => {
  test(
    'AMV-EQUALS-HELD AMV-OLDER-REPORTS-OLDER AMV-FETCH-DOES-NOT-ADVANCE AMV-ADVANCES-ON-APPLY each report carries the version of the revision it describes: the older one until the newer is held and applied',
    req('AMV-EQUALS-HELD', 'AMV-OLDER-REPORTS-OLDER', 'AMV-FETCH-DOES-NOT-ADVANCE', 'AMV-ADVANCES-ON-APPLY'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const { client, component, given } = await settledDeployment(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      await updateDeployment(
        client,
        hooks,
        given,
        [...COMPONENTS, ADDED].map((name) => ({ ...component, name })),
      );
      const { findings, note } = revisionFindings(await settledSecondRevision(client, given.deploymentId), given.deploymentId);
      test.info().annotations.push({ type: 'note', description: note });
      expectEach(findings, '§2.4.1 rules 3 and 4: the version of the revision held, advancing when the newer one is applied');
    },
  );

  test(
    'AMV-EQUALS-HELD AMV-ADVANCES-ON-APPLY restarted with its local state (a reboot) while its deployment moved to a second revision, the client reports each revision with its own version',
    req('AMV-EQUALS-HELD', 'AMV-ADVANCES-ON-APPLY'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      hooks.require('stopClient');
      const { client, component, given } = await settledDeployment(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      // A reboot keeps what the client holds (revision 1); the WFM moves on to revision 2 while it is down.
      const { afterSeq } = await client.restart({
        loseState: false,
        whileDown: () =>
          updateDeployment(
            client,
            hooks,
            given,
            [...COMPONENTS, ADDED].map((name) => ({ ...component, name })),
          ),
      });
      const { findings, note } = revisionFindings(
        await settledSecondRevision(client, given.deploymentId, afterSeq),
        given.deploymentId,
        afterSeq,
      );
      test.info().annotations.push({ type: 'note', description: `exchanges after #${afterSeq} follow the reboot; ${note}` });
      expectEach(
        findings.filter((f) => f.id === 'AMV-EQUALS-HELD' || f.id === 'AMV-ADVANCES-ON-APPLY'),
        '§2.4.1 rules 3 and 4 across a reboot: the version of the revision held',
      );
    },
  );

  // Errata of AMV-EQUALS-HELD: a newer manifest that carries a deployment unchanged defines a revision of it with the same
  // bytes; a client may say it holds the one it adopted or the newer one. Any other version is held by no revision.
  test(
    'AMV-EQUALS-HELD a deployment a newer manifest carries unchanged is reported with the version of a manifest that carried it, never another',
    req('AMV-EQUALS-HELD'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const { client, component, given } = await settledDeployment(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      const mark = Math.max(...(await client.observe()).exchanges.map((x) => x.seq));
      // A second deployment changes the manifest; the first stays as it was.
      const other = await giveDeployment(client, hooks, [{ ...component, name: 'other' }]);
      await untilSettled(client, other.deploymentId);
      const xs = await client.waitFor(
        'two polls after the second deployment settled',
        (all) => (all.filter((x) => x.seq > mark && isManifestPoll(x)).length >= 2 ? all : undefined),
        undefined,
        REPORTS_WHILE_APPLYING,
      );
      const carried = new Set(servedRevisions(xs, given.deploymentId).map((r) => r.version));
      const wrong = reportsOf(xs, given.deploymentId).filter(
        ({ report }) =>
          typeof report?.adoptedManifestVersion === 'number' &&
          report.adoptedManifestVersion >= 1 &&
          !carried.has(report.adoptedManifestVersion),
      );
      test
        .info()
        .annotations.push({ type: 'note', description: `manifests carrying ${given.deploymentId}: versions ${[...carried].join(', ')}` });
      expect(
        wrong.map(({ report, exchange }) => `report #${exchange.seq}: adoptedManifestVersion ${report.adoptedManifestVersion}`),
        '§2.4.1 rule 3: the version of a revision the client holds (a manifest that carried it)',
      ).toEqual([]);
    },
  );
});

test.describe('§2.4.1 a client that lost its local state', () => {
  test(
    'AMV-RESYNC restarted without its local state, the client reports the version of the manifest it resynchronized against',
    req('AMV-RESYNC'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      hooks.require('stopClient');
      const { client, component, given } = await settledDeployment(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      // While it is down the deployment moves to a second revision, so the version held before the loss can never pass
      // for the one it resynchronizes against.
      const { afterSeq } = await client.restart({
        loseState: true,
        whileDown: () =>
          updateDeployment(
            client,
            hooks,
            given,
            [...COMPONENTS, ADDED].map((name) => ({ ...component, name })),
          ),
      });
      const after = await client.waitFor(
        `after the restart, a settled report of the second revision (it lists ${ADDED})`,
        (all) => {
          const since = all.filter((x) => x.seq > afterSeq);
          return reportsOf(since, given.deploymentId).some(
            (r) => ofSecondRevision(r) && ['installed', 'failed'].includes(String(r.report?.status?.state)),
          )
            ? since
            : undefined;
        },
        40_000,
        REPORTS_WHILE_APPLYING,
      );
      const resync = servedRevisions(after, given.deploymentId)[0];
      requireThat(
        REPORTS_WHILE_APPLYING,
        resync !== undefined,
        'after the restart the client reported without fetching a state manifest that carries the deployment',
      );
      test.info().annotations.push({
        type: 'note',
        description: `exchanges after #${afterSeq} follow the restart; the client resynchronized against manifestVersion ${resync!.version} (#${resync!.seq})`,
      });
      const wrong = reportsOf(after, given.deploymentId).filter(
        ({ report }) => typeof report?.adoptedManifestVersion === 'number' && report.adoptedManifestVersion !== resync!.version,
      );
      expect(
        wrong.map(({ report, exchange }) => `report #${exchange.seq}: adoptedManifestVersion ${report.adoptedManifestVersion}`),
        `§2.4.1 rule 6: every report after the resynchronization carries ${resync!.version}`,
      ).toEqual([]);
    },
  );
});

test.describe('§2.4 a deployment removed from the desired state', () => {
  test(
    'STATUS-PRECEDENCE-REMOVED the overall state is removed only once every component is removed',
    req('STATUS-PRECEDENCE-REMOVED'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      hooks.require('removeDeployment');
      const { client, given } = await settledDeployment(await clientUnderTest(), ctx, caPems, hooks, profile.vendor);
      const { clientId } = await client.observe();
      await hooks.run('removeDeployment', { clientId, deviceId: given.deviceId, deploymentId: given.deploymentId });
      // Until the client says every component is removed (or says removed at all): its last word on the removal.
      const gone = (r: Report) =>
        r.report?.status?.state === 'removed' ||
        ((r.report?.components ?? []).length > 0 && r.report.components.every((c) => c?.state === 'removed'));
      const reports = await client.waitFor(
        'a report of the removed deployment with every component removed',
        (xs) => {
          const all = reportsOf(xs, given.deploymentId);
          return all.some(gone) ? all : undefined;
        },
        undefined,
        REPORTS_WHILE_APPLYING,
      );
      const early = reports.filter(
        ({ report }) => report?.status?.state === 'removed' && (report.components ?? []).some((c) => c?.state !== 'removed'),
      );
      expect(
        early.map(
          ({ report, exchange }) =>
            `report #${exchange.seq}: removed while ${(report.components ?? []).map((c) => `${c?.name} ${c?.state}`).join(', ')}`,
        ),
        '§2.4: removed only when every component is removed',
      ).toEqual([]);
    },
  );
});
