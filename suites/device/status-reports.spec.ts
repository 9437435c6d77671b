// Persona device, interfaces.md §2.4: what every status report of a deployment carries (deploymentId, status, one
// entry per component, known states), for a client given a deployment of two compose components through the desired state.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { pathOf } from '../../fixtures/client-under-test.ts';
import { componentsFindings } from '../../spec/rules/status-report.ts';
import { DEPLOYMENT_STATES } from '../../spec/types.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';
import { COMPONENTS, deploy } from '../../fixtures/device-status.ts';

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
});
