// Persona device, profiles.md P4 (and §2.4.1 rule 7): how the client under test fetches its desired state. It
// revalidates with the ETag of the last state manifest it got, and refuses every negative fixture the kit's WFM serves:
// a deployment YAML whose bytes do not hash to the manifest's digest, a bundle with a wrong digest or an extra file,
// a manifestVersion that repeats or goes down. A refused document is never applied: nothing it names is pulled, and
// the deployment is never reported installed from it.
import { test, expect } from '../../fixtures/staged.ts';
import { req } from '../../fixtures/req.ts';
import { isManifestPoll, pathOf, type ClientUnderTest } from '../../fixtures/client-under-test.ts';
import { startWitnessRegistry } from '../../scripted/component-registry.ts';
import {
  REPORTS_WHILE_APPLYING,
  giveDeployment,
  reportsOf,
  sampleComponent,
  untilSettled,
  updateDeployment,
} from '../../fixtures/device-deployments.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';
import { etagMatches } from '../../spec/rules/desired-state.ts';

/** Polls of the state manifest watched once the client met the fixture: time to act on it, had it accepted it. */
const WATCH_POLLS = 3;
const WATCH_MS = 40_000;

/**
 * Every exchange once the client did `met` and then polled its manifest WATCH_POLLS times, or showed `refusedNot`
 * (what it would show had it taken the fixture: then there is nothing left to wait for).
 */
function watch(
  client: ClientUnderTest,
  what: string,
  met: (x: RecordedExchange) => boolean,
  refusedNot: (xs: RecordedExchange[]) => boolean,
): Promise<RecordedExchange[]> {
  return client.waitFor(
    `${what}, then ${WATCH_POLLS} polls of its state manifest`,
    (all) => {
      const at = all.findIndex(met);
      if (at < 0) return undefined;
      return refusedNot(all) || all.slice(at).filter(isManifestPoll).length >= WATCH_POLLS ? all : undefined;
    },
    WATCH_MS,
    REPORTS_WHILE_APPLYING,
  );
}

/** Reports of the deployment saying it installed. */
function installedReports(xs: RecordedExchange[], deploymentId: string): string[] {
  return reportsOf(xs, deploymentId)
    .filter(({ report }) => report?.status?.state === 'installed')
    .map(describe);
}

/** Reports of the deployment that list `component`: of the revision that brought it. */
function reportsListing(xs: RecordedExchange[], deploymentId: string, component: string): string[] {
  return reportsOf(xs, deploymentId)
    .filter(({ report }) => (report?.components ?? []).some((c) => String(c?.name).toLowerCase() === component))
    .map(describe);
}

function describe({ report, exchange }: ReturnType<typeof reportsOf>[number]): string {
  return `report #${exchange.seq}: ${report?.status?.state} [${(report?.components ?? []).map((c) => `${c?.name} ${c?.state}`).join(', ')}] adoptedManifestVersion ${report?.adoptedManifestVersion}`;
}

const fetchedDeployment = (deploymentId: string) => (x: RecordedExchange) =>
  x.method === 'GET' && (pathOf(x).includes(`/deployments/${deploymentId}/`) || pathOf(x).includes('/bundles/'));

test.describe('P4 the client fetches its desired state', () => {
  test(
    'DS-CLIENT-IF-NONE-MATCH a poll that revalidates names the ETag of the last state manifest it got',
    req('DS-CLIENT-IF-NONE-MATCH'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const client = await clientUnderTest();
      // The desired state changes once the client has a manifest, so the ETag of that first one goes stale.
      await client.waitFor(
        'its first state manifest',
        (xs) => (xs.some((x) => isManifestPoll(x) && x.status === 200) ? true : undefined),
        undefined,
        REPORTS_WHILE_APPLYING,
      );
      const { deploymentId } = await giveDeployment(client, hooks, [await sampleComponent(ctx, caPems, profile.vendor)]);
      const polls = await client.waitFor(
        `${WATCH_POLLS} polls after its desired state changed`,
        (all) => {
          const xs = all.filter(isManifestPoll);
          const changed = xs.findIndex((x) => x.status === 200 && (x.responseBody ?? '').includes(deploymentId));
          return changed >= 0 && xs.length - changed > WATCH_POLLS ? xs : undefined;
        },
        undefined,
        REPORTS_WHILE_APPLYING,
      );
      const findings: string[] = [];
      let last: string | undefined;
      for (const x of polls) {
        const sent = x.headers['if-none-match'];
        if (sent !== undefined && (last === undefined || !etagMatches(sent, last)))
          findings.push(`poll #${x.seq}: If-None-Match ${sent}; the last state manifest it got had ETag ${last ?? '(none yet)'}`);
        if (x.status === 200 && x.responseEtag !== undefined) last = x.responseEtag;
      }
      test.info().annotations.push({
        type: 'note',
        description: `${polls.filter((x) => x.headers['if-none-match'] !== undefined).length} of ${polls.length} polls were conditional (P4 MAY)`,
      });
      expect(findings, 'P4: a conditional poll names the ETag of the last state manifest retrieved').toEqual([]);
    },
  );

  test(
    'DS-CLIENT-VERIFY-DEPLOYMENT-DIGEST a deployment YAML whose bytes do not hash to its digest is never applied: nothing it names is pulled, nothing is reported installed',
    req('DS-CLIENT-VERIFY-DEPLOYMENT-DIGEST'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile, staged }) => {
      // The YAML served names a component of a registry that logs every request: a client that fetches past the failed
      // digest shows there.
      const witness = await staged(startWitnessRegistry(profile.vendor));
      const client = await clientUnderTest({ extraCaPem: witness.caPem });
      const component = await sampleComponent(ctx, caPems, profile.vendor);
      const { deploymentId } = await giveDeployment(client, hooks, [component], 'own', {
        defect: 'yaml-digest',
        substitute: [witness.component],
      });
      const xs = await watch(
        client,
        "it fetched the deployment's YAML",
        fetchedDeployment(deploymentId),
        (all) => installedReports(all, deploymentId).length > 0,
      );
      expect(
        witness.requests,
        `P4: the YAML that failed its digest names ${witness.component.repository}; nothing may be pulled from it`,
      ).toEqual([]);
      expect(installedReports(xs, deploymentId), 'P4: a YAML that failed its digest is never applied, so never reported installed').toEqual(
        [],
      );
    },
  );
});

test.describe('P4 §2.4.1 the client refuses a bad bundle and a manifestVersion that does not grow', () => {
  for (const [id, defect, what] of [
    ['DS-CLIENT-VERIFY-BUNDLE-DIGEST', 'bundle-digest', 'a bundle whose bytes do not hash to its digest'],
    ['DS-CLIENT-BUNDLE-CONTENTS', 'bundle-extra-file', 'a bundle holding a file that is no deployment YAML'],
  ] as const) {
    test(
      `${id} with its YAML's URL answering 404, ${what} is never used: the deployment is never reported installed`,
      req(id),
      async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
        const client = await clientUnderTest();
        const { deploymentId } = await giveDeployment(client, hooks, [await sampleComponent(ctx, caPems, profile.vendor)], 'own', {
          defect,
        });
        const xs = await watch(
          client,
          "it asked for the deployment's YAML or the bundle",
          fetchedDeployment(deploymentId),
          (all) => installedReports(all, deploymentId).length > 0,
        );
        const bundles = xs.filter((x) => x.method === 'GET' && pathOf(x).includes('/bundles/')).length;
        test.info().annotations.push({
          type: 'note',
          description: bundles
            ? `the client fetched the bundle ${bundles} times`
            : 'the client never fetched the bundle: it relies on the YAML URLs alone, so it never used a bad bundle',
        });
        expect(
          installedReports(xs, deploymentId),
          `P4: ${what} is refused, so the deployment it alone could deliver is never installed`,
        ).toEqual([]);
      },
    );
  }

  for (const [defect, what] of [
    ['version-repeats', 'repeats the last one'],
    ['version-goes-down', 'is lower than the last one'],
  ] as const) {
    test(
      `DS-CLIENT-MONOTONIC a state manifest whose manifestVersion ${what} is never adopted: the revision it carries is never applied`,
      req('DS-CLIENT-MONOTONIC'),
      async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
        const client = await clientUnderTest();
        const component = await sampleComponent(ctx, caPems, profile.vendor);
        const given = await giveDeployment(client, hooks, [component]);
        await untilSettled(client, given.deploymentId);
        const mark = Math.max(...(await client.observe()).exchanges.map((x) => x.seq));
        // The second revision adds a component: a report that lists it was adopted from the manifest that must be refused.
        await updateDeployment(client, hooks, given, [component, { ...component, name: 'intruder' }], { defect });
        const after = (x: RecordedExchange) => x.seq > mark;
        const xs = await watch(
          client,
          'it polled its state manifest after the change',
          (x) => after(x) && isManifestPoll(x) && x.status === 200,
          (all) => reportsListing(all.filter(after), given.deploymentId, 'intruder').length > 0,
        );
        expect(
          reportsListing(xs.filter(after), given.deploymentId, 'intruder'),
          `§2.4.1 rule 7: a manifestVersion that ${what} is no newer state; its revision is never adopted`,
        ).toEqual([]);
      },
    );
  }
});
