// Persona device, interfaces.md §2.7: the client judges each compose archive before it extracts anything. The kit
// publishes archives that break one rule each (and a benign control) and gives them to the client as deployments;
// a client that ever reports one of the hostile ones installed has extracted it.
import { test, expect } from '../../fixtures/staged.ts';
import { req } from '../../fixtures/req.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';
import { BENIGN_ARCHIVES, HOSTILE_ARCHIVES, benignEntries, type ArchiveEntrySpec } from '../../fixtures/archives/build.ts';
import {
  REPORTS_WHILE_APPLYING,
  deploymentNameOf,
  firstManifestVersion,
  giveDeployment,
  publishArchive,
  untilSettled,
} from '../../fixtures/device-deployments.ts';
import { requireThat } from '../../fixtures/outcome.ts';
import { startTamperingRegistry } from '../../scripted/component-registry.ts';
import { errorShapeFindings, errorSourceFindings, isNoError } from '../../spec/rules/status-report.ts';

/** A benign archive without subdirectories: one top-level directory holding compose.yaml alone. */
const FLAT: ArchiveEntrySpec[] = [
  { name: 'web-app/', type: 'directory' },
  { name: 'web-app/compose.yaml', content: 'services:\n  web:\n    image: nginx:1.27\n' },
];

/**
 * Hostile archives a client must refuse, by the requirement that refusal shows. Not the setuid-bit archive: §2.7 rule 7
 * asks that the bits are not preserved (SHOULD normalize), so a client that drops them and installs conforms as much as
 * one that refuses, and the wire never shows which bits landed on disk (COMPOSE-NO-SETUID is untestable).
 */
const HOSTILE: [string, string][] = [
  ['COMPOSE-VALIDATE-BEFORE-EXTRACT', 'dotdot-entry'],
  ['COMPOSE-VALIDATE-BEFORE-EXTRACT', 'absolute-path'],
  ['COMPOSE-VALIDATE-BEFORE-EXTRACT', 'symlink-out'],
  ['COMPOSE-VALIDATE-BEFORE-EXTRACT', 'hardlink-out'],
  ['COMPOSE-VALIDATE-BEFORE-EXTRACT', 'two-top-dirs'],
  ['COMPOSE-CLIENT-REJECTS-OTHER-NAMES', 'docker-compose-yml'],
];

test.describe('§2.7 compose archives the client is given', () => {
  test(
    'COMPOSE-DISCOVERY an archive of one top-level directory holding compose.yaml, nothing deeper, is installed (the control)',
    req('COMPOSE-DISCOVERY'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await publishArchive(ctx, caPems, profile.vendor, 'flat', 'web-app', FLAT);
      const client = await clientUnderTest();
      const { deploymentId } = await giveDeployment(client, hooks, [component]);
      const reports = await untilSettled(client, deploymentId);
      expect(reports.at(-1)?.report.status.state, '§2.7 rule 2: compose.yaml found in the single top-level directory: installed').toBe(
        'installed',
      );
    },
  );

  test(
    'COMPOSE-SUBDIRS-ALLOWED an archive with subdirectories and an inner symlink is installed, as its flat control is',
    req('COMPOSE-SUBDIRS-ALLOWED'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const [flat, nested] = await Promise.all([
        publishArchive(ctx, caPems, profile.vendor, 'flat', 'web-app', FLAT),
        publishArchive(ctx, caPems, profile.vendor, 'benign', 'web-app', BENIGN_ARCHIVES['nested-with-inner-symlink']!),
      ]);
      const client = await clientUnderTest();
      const control = await untilSettled(client, (await giveDeployment(client, hooks, [flat])).deploymentId);
      requireThat(
        'COMPOSE-DISCOVERY',
        control.at(-1)?.report.status.state === 'installed',
        'the client installs not even the archive without subdirectories: subdirectories cannot be judged apart',
      );
      const reports = await untilSettled(client, (await giveDeployment(client, hooks, [nested])).deploymentId);
      expect(reports.at(-1)?.report.status.state, '§2.7 rule 3: subdirectories are allowed: installed').toBe('installed');
    },
  );

  test(
    'COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY an archive whose one top-level directory is not named after the component is installed all the same',
    req('COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await publishArchive(ctx, caPems, profile.vendor, 'renamed-top', 'web-app', benignEntries('release-2024'));
      const client = await clientUnderTest();
      const { deploymentId } = await giveDeployment(client, hooks, [component]);
      const reports = await untilSettled(client, deploymentId);
      expect(reports.at(-1)?.report.status.state, '§2.7: compose.yaml is found in the one top-level directory, whatever its name').toBe(
        'installed',
      );
    },
  );
});

test.describe('§2.7 rule 8 §2.4 archives the client refuses, and how it reports the refusal', () => {
  test(
    'COMPOSE-VERIFY-DIGEST a layer blob whose bytes do not hash to its digest (another valid archive) is refused before extraction',
    req('COMPOSE-VERIFY-DIGEST'),
    async ({ clientUnderTest, hooks, profile, staged }) => {
      const registry = await staged(startTamperingRegistry(profile.vendor));
      const client = await clientUnderTest({ extraCaPem: registry.caPem });
      const { deploymentId } = await giveDeployment(client, hooks, [registry.component]);
      const states = (await untilSettled(client, deploymentId)).map((r) => r.report.status.state);
      expect(states, '§2.7 rule 8: bytes that miss their digest are never extracted, so never installed').not.toContain('installed');
      expect(states.at(-1), '§2.7 rule 8: the refusal is reported as a failed deployment').toBe('failed');
    },
  );

  test(
    "STATUS-ERROR-FIELDS STATUS-ERROR-SOURCE-COMPONENT STATUS-ERROR-SOURCE-DEPLOYMENT a refused archive is reported with errors of code, source and message: the component's names the component, status.error the deployment",
    req('STATUS-ERROR-FIELDS', 'STATUS-ERROR-SOURCE-COMPONENT', 'STATUS-ERROR-SOURCE-DEPLOYMENT'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await publishArchive(
        ctx,
        caPems,
        profile.vendor,
        'hostile-absolute-path',
        'web-app',
        HOSTILE_ARCHIVES['absolute-path']!.entries,
      );
      const client = await clientUnderTest();
      const { deploymentId } = await giveDeployment(client, hooks, [component]);
      const reports = await untilSettled(client, deploymentId);
      const deploymentName = deploymentNameOf((await client.observe()).exchanges, deploymentId);
      requireThat(
        REPORTS_WHILE_APPLYING,
        Boolean(deploymentName),
        'the client reported on the deployment without fetching its YAML (metadata.name)',
      );
      const failed = reports.filter((r) => r.report.status.state === 'failed');
      requireThat(
        'COMPOSE-VALIDATE-BEFORE-EXTRACT',
        failed.length > 0,
        'the client never reported the archive with an absolute path failed',
      );
      const errors = failed
        .flatMap(({ report }) => [report.status.error, ...report.components.map((c) => c.error)])
        .filter((e) => e != null && !isNoError(e));
      expect(errors.length, '§2.4: a failure carries an Error').toBeGreaterThan(0);
      const findings = failed.flatMap(({ report }): TaggedFinding[] => [
        ...errorShapeFindings(report).map((f) => ({ id: 'STATUS-ERROR-FIELDS', message: `${f.path ?? ''}: ${f.message}` })),
        ...errorSourceFindings(report, { deploymentName: deploymentName! }).map((f) => ({
          id: f.path?.startsWith('/status/') ? 'STATUS-ERROR-SOURCE-DEPLOYMENT' : 'STATUS-ERROR-SOURCE-COMPONENT',
          message: `${f.path ?? ''}: ${f.message}`,
        })),
      ]);
      expectEach(findings, '§2.4: code, source, message; sources per rules 2 and 3');
    },
  );

  // The refusal is one no reading disputes (a `../` entry, §2.7 rule 7), so the check stands on an outcome, not a reading.
  test(
    'AMV-INDEPENDENT-OF-OUTCOME a deployment the client refuses (failed) is still reported with the version of the manifest it holds',
    req('AMV-INDEPENDENT-OF-OUTCOME'),
    async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
      const component = await publishArchive(
        ctx,
        caPems,
        profile.vendor,
        'hostile-dotdot-entry',
        'web-app',
        HOSTILE_ARCHIVES['dotdot-entry']!.entries,
      );
      const client = await clientUnderTest();
      const { deploymentId } = await giveDeployment(client, hooks, [component]);
      const reports = await untilSettled(client, deploymentId);
      const version = firstManifestVersion((await client.observe()).exchanges, deploymentId);
      requireThat(
        REPORTS_WHILE_APPLYING,
        version !== undefined,
        'the client reported on the deployment without fetching a state manifest that carries it',
      );
      const failed = reports.filter((r) => r.report.status.state === 'failed');
      requireThat('COMPOSE-VALIDATE-BEFORE-EXTRACT', failed.length > 0, 'the client never reported the archive with a ../ entry failed');
      expect(
        failed.map((r) => r.report.adoptedManifestVersion),
        `§2.4.1 rule 1: adoption is independent of the outcome: version ${version}`,
      ).toEqual(failed.map(() => version));
    },
  );
});

test.describe('§2.7 hostile archives the client refuses', () => {
  for (const [id, archive] of HOSTILE) {
    test(
      `${id} an archive with ${archive} (${HOSTILE_ARCHIVES[archive]!.rule}) is refused: reported failed, never installed`,
      req(id),
      async ({ clientUnderTest, ctx, caPems, hooks, profile }) => {
        const component = await publishArchive(
          ctx,
          caPems,
          profile.vendor,
          `hostile-${archive}`,
          'web-app',
          HOSTILE_ARCHIVES[archive]!.entries,
        );
        const client = await clientUnderTest();
        const { deploymentId } = await giveDeployment(client, hooks, [component]);
        const reports = await untilSettled(client, deploymentId);
        const states = reports.map((r) => r.report.status.state);
        expect(states, `§2.7: the archive breaks ${HOSTILE_ARCHIVES[archive]!.rule}; it must never be installed`).not.toContain(
          'installed',
        );
        expect(states.at(-1), '§2.7: the refusal is reported as a failed deployment').toBe('failed');
      },
    );
  }
});
