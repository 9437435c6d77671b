// interfaces.md §2.6 and §4.6 under trust anchor rotation (P5 rotateTrustAnchor): the overlap, the old anchor gone,
// spiffe_sequence across changes and revalidation of a changed bundle; examples first, then model-based properties.
import fc from 'fast-check';
import { test, expect, anchorSet, jsonOf, type IdentityTarget } from '../fixtures/identity.ts';
import { rotationCommands, type RotationModel, type RotationReal, type Step } from '../models/rotation.ts';
import { req } from '../fixtures/req.ts';
import { sequenceFindings } from '../spec/rules/trust-bundle.ts';
import type { RunContext } from '../run/contract/context.ts';
import type { Hooks } from '../fixtures/wfmck.ts';
import type { TrustBundle } from '../spec/types.ts';
import { requireThat } from '../fixtures/outcome.ts';

// Every check here rotates the anchor, which changes the bundle: none overlaps a check that reads either.
test.use({ shared: { writes: ['trust-anchor', 'identity-documents'] } });

/** Random begin/finish/fetch sequences against the target, each step handed to `judge`; the overlap is closed after each run. */
async function rotationProperty(identity: IdentityTarget, hooks: Hooks, ctx: RunContext, judge: (step: Step) => void): Promise<void> {
  hooks.require('rotateTrustAnchor');
  const property = fc.asyncProperty(rotationCommands(6), async (commands) => {
    const model: RotationModel = { overlap: false };
    const real: RotationReal = {
      fetch: async () => (await identity.bundle()).bundle,
      rotate: (phase) => identity.rotate(phase),
      judge,
      last: (await identity.bundle()).bundle,
      before: [],
    };
    try {
      await fc.asyncModelRun(() => ({ model, real }), commands);
    } finally {
      // The fixture's record, not the model's: a command that threw after its hook call left the model behind.
      await identity.endOverlap();
    }
  });
  // Each command is a hook call and one or two HTTP exchanges: a few runs keep the suite fast, --runs lowers it further.
  await fc.assert(property, { seed: ctx.seed, numRuns: Math.min(ctx.runs, 12), path: ctx.path });
}

/**
 * §2.6, P5 after `finish`: every anchor the overlap added stays, and at least one anchor from before it is gone (the old
 * one). An anchor outside the rotation (an SVID CA the operator keeps in the bundle) may stay: every anchor in a bundle
 * is equally authoritative, and P5 asks only that the old one go (errata of BUNDLE-ROTATION-OVERLAP).
 */
function finishFindings(before: readonly string[], added: readonly string[], after: readonly string[]): string[] {
  return [
    ...added.filter((a) => !after.includes(a)).map(() => 'an anchor the overlap added is gone after finish'),
    ...(before.length > 0 && before.every((a) => after.includes(a))
      ? ['every anchor from before the overlap is still there: the old one was not retired']
      : []),
  ];
}

test.describe('§2.6 trust anchor rotation (P5 rotateTrustAnchor begin, then finish)', () => {
  test(
    'BUNDLE-ROTATION-OVERLAP begin keeps the current anchor and adds one: more than one x509-svid entry',
    req('BUNDLE-ROTATION-OVERLAP'),
    async ({ identity }) => {
      const before = anchorSet((await identity.bundle()).bundle);
      await identity.rotate('begin');
      const during = anchorSet((await identity.bundle()).bundle);
      expect(during.length, '§2.6: during a rotation overlap keys holds more than one x509-svid entry').toBeGreaterThan(1);
      expect(
        before.filter((a) => !during.includes(a)),
        '§2.6: the overlap keeps the current anchor beside the new one',
      ).toEqual([]);
    },
  );

  test(
    'BUNDLE-ROTATION-OVERLAP finish ends the overlap: the old anchor is gone, the new one stays',
    req('BUNDLE-ROTATION-OVERLAP'),
    async ({ identity }) => {
      const before = anchorSet((await identity.bundle()).bundle);
      await identity.rotate('begin');
      const added = anchorSet((await identity.bundle()).bundle).filter((a) => !before.includes(a));
      await identity.rotate('finish');
      const after = anchorSet((await identity.bundle()).bundle);
      expect(added.length, '§2.6: begin added an anchor').toBeGreaterThan(0);
      expect(finishFindings(before, added, after), '§2.6, P5: after the overlap the old anchor is gone and the new one stays').toEqual([]);
    },
  );

  test(
    'BUNDLE-200 after a rotation, If-None-Match with the earlier ETag answers 200 with the changed bundle',
    req('BUNDLE-200'),
    async ({ identity }) => {
      const { response } = await identity.bundle();
      const etag = response.headers['etag'];
      // Without an ETag no client revalidates, so there is no stale tag to send (BUNDLE-ETAG judges the missing tag).
      if (etag === undefined)
        return void test.info().annotations.push({ type: 'note', description: 'the bundle carries no ETag: nothing to revalidate' });
      await identity.rotate('begin');
      // Only a changed bundle makes the earlier tag stale: a begin that changed nothing is BUNDLE-ROTATION-OVERLAP's finding.
      requireThat(
        'BUNDLE-ROTATION-OVERLAP',
        anchorSet((await identity.bundle()).bundle).length > 1,
        'begin added no anchor, so the bundle did not change',
      );
      const res = await identity.get(await identity.bundleUri(), { 'if-none-match': etag });
      expect(res.status, '§4.6: If-None-Match with the tag of a bundle that has since changed matches nothing: 200, not 304').toBe(200);
      expect(anchorSet(jsonOf(res) as TrustBundle).length, '§4.6: the 200 carries the changed bundle (the overlap)').toBeGreaterThan(1);
    },
  );

  test(
    'BUNDLE-SEQUENCE-NUMBER across begin and finish, spiffe_sequence never goes down and grows when the anchors change',
    req('BUNDLE-SEQUENCE-NUMBER'),
    async ({ identity }) => {
      const bundles = [(await identity.bundle()).bundle];
      for (const phase of ['begin', 'finish'] as const) {
        await identity.rotate(phase);
        bundles.push((await identity.bundle()).bundle);
        expect(
          sequenceFindings(bundles.at(-2), bundles.at(-1)!).map((f) => f.message),
          `§2.6: spiffe_sequence across ${phase}`,
        ).toEqual([]);
      }
    },
  );
});

test.describe('§2.6 trust anchor rotation: model-based properties over random begin/finish/fetch sequences', () => {
  test(
    'BUNDLE-ROTATION-OVERLAP random begin/finish/fetch sequences: an overlap holds old and new anchors, finish leaves the new',
    req('BUNDLE-ROTATION-OVERLAP'),
    async ({ identity, hooks, ctx }) => {
      await rotationProperty(identity, hooks, ctx, (step) => {
        const [prev, next] = [anchorSet(step.prev), anchorSet(step.next)];
        if (step.overlap)
          expect(next.length, `§2.6: after ${step.command}, inside the overlap, more than one x509-svid entry`).toBeGreaterThan(1);
        if (step.command === 'begin')
          expect(
            prev.filter((a) => !next.includes(a)),
            '§2.6: begin keeps the current anchor',
          ).toEqual([]);
        if (step.command === 'finish') {
          const added = prev.filter((a) => !step.before.includes(a));
          expect(added.length, '§2.6: the overlap added an anchor').toBeGreaterThan(0);
          expect(
            finishFindings(step.before, added, next),
            '§2.6, P5: finish drops the old anchor and keeps the ones the overlap added',
          ).toEqual([]);
        }
      });
    },
  );

  test(
    'BUNDLE-SEQUENCE-NUMBER random begin/finish/fetch sequences: spiffe_sequence never goes down and grows with every change',
    req('BUNDLE-SEQUENCE-NUMBER'),
    async ({ identity, hooks, ctx }) => {
      await rotationProperty(identity, hooks, ctx, (step) => {
        expect(
          sequenceFindings(step.prev, step.next).map((f) => f.message),
          `§2.6: spiffe_sequence across ${step.command}`,
        ).toEqual([]);
      });
    },
  );
});
