// Persona device, interfaces.md §2.4 and P7: the overall state a client reports for a deployment, as it applies it
// and as it removes it: the most severe of its component states, removed only once every component is.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { REPORTS_WHILE_APPLYING, reportsOf, type Report } from '../../fixtures/device-deployments.ts';
import { judgeOverallState } from '../../spec/rules/status-precedence.ts';
import type { DeploymentState } from '../../spec/types.ts';
import { warnUnlessStrict } from '../../fixtures/errata.ts';
import { deploy, settledDeployment } from '../../fixtures/device-status.ts';

test.describe('§2.4 P7 the overall state of a deployment', () => {
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
