// Persona device, interfaces.md §2.4.1: the adoptedManifestVersion of each status report, for a first install, a
// deployment updated to a second revision (also across a reboot), a manifest that carries it unchanged, and a client
// that lost its local state.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { isManifestPoll, pathOf, type ClientUnderTest } from '../../fixtures/client-under-test.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';
import {
  REPORTS_WHILE_APPLYING,
  giveDeployment,
  reportsOf,
  servedRevisions,
  untilSettled,
  updateDeployment,
  type Report,
} from '../../fixtures/device-deployments.ts';
import { requireThat } from '../../fixtures/outcome.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';
import { ADDED, COMPONENTS, deploy, settledDeployment } from '../../fixtures/device-status.ts';

test.describe('§2.4.1 the adopted manifest version of a first install', () => {
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
