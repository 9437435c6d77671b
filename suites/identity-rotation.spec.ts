// interfaces.md §2.6 and §4.6 under trust anchor rotation (P5 rotateTrustAnchor): the overlap, the old anchor gone,
// spiffe_sequence across changes and revalidation of a changed bundle; examples first, then model-based properties.
import fc from 'fast-check';
import { test, expect, anchorSet, jsonOf, type IdentityTarget } from '../fixtures/identity.ts';
import { rotationCommands, type RotationModel, type RotationReal, type Step } from '../fixtures/rotation-model.ts';
import { req } from '../fixtures/req.ts';
import { sequenceFindings } from '../spec/rules/trust-bundle.ts';
import type { RunContext } from '../fixtures/run-context.ts';
import type { Hooks } from '../fixtures/wfmck.ts';
import type { TrustBundle } from '../spec/types.ts';

const sorted = (xs: string[]) => [...xs].sort();

/** Leaves the target outside an overlap (a failed check may leave one open): two anchors or more are finished. */
async function settle(identity: IdentityTarget): Promise<void> {
  if (anchorSet((await identity.bundle()).bundle).length > 1) await identity.rotate('finish');
}

/** Random begin/finish/fetch sequences against the target, each step handed to `judge`; the overlap is closed after each run. */
async function rotationProperty(identity: IdentityTarget, hooks: Hooks, ctx: RunContext, judge: (step: Step) => void): Promise<void> {
  hooks.require('rotateTrustAnchor');
  await settle(identity);
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
      if (model.overlap) await identity.rotate('finish');
    }
  });
  // Each command is a hook call and one or two HTTP exchanges: a few runs keep the suite fast, --runs lowers it further.
  await fc.assert(property, { seed: ctx.seed, numRuns: Math.min(ctx.runs, 12), path: process.env.WFMCK_PATH });
}

test.describe('§2.6 trust anchor rotation (P5 rotateTrustAnchor begin, then finish)', () => {
  test.beforeEach(async ({ identity }) => settle(identity));
  test.afterEach(async ({ identity }) => settle(identity));

  test('BUNDLE-ROTATION-OVERLAP begin keeps the current anchor and adds one: more than one x509-svid entry', req('BUNDLE-ROTATION-OVERLAP'), async ({ identity }) => {
    const before = anchorSet((await identity.bundle()).bundle);
    await identity.rotate('begin');
    const during = anchorSet((await identity.bundle()).bundle);
    expect(during.length, '§2.6: during a rotation overlap keys holds more than one x509-svid entry').toBeGreaterThan(1);
    expect(before.filter((a) => !during.includes(a)), '§2.6: the overlap keeps the current anchor beside the new one').toEqual([]);
  });

  test('BUNDLE-ROTATION-OVERLAP finish ends the overlap: the old anchor is gone, only the new one stays', req('BUNDLE-ROTATION-OVERLAP'), async ({ identity }) => {
    const before = anchorSet((await identity.bundle()).bundle);
    await identity.rotate('begin');
    const added = anchorSet((await identity.bundle()).bundle).filter((a) => !before.includes(a));
    await identity.rotate('finish');
    const after = anchorSet((await identity.bundle()).bundle);
    expect(added.length, 'setup (§2.6): begin added an anchor').toBeGreaterThan(0);
    expect(sorted(after), '§2.6, P5: after the overlap only the new anchor stays (the old one is gone)').toEqual(sorted(added));
  });

  test('BUNDLE-200 after a rotation, If-None-Match with the earlier ETag answers 200 with the changed bundle', req('BUNDLE-200'), async ({ identity }) => {
    const { response } = await identity.bundle();
    const etag = response.headers['etag'];
    // Without an ETag no client revalidates, so there is no stale tag to send (BUNDLE-ETAG judges the missing tag).
    if (etag === undefined) return void test.info().annotations.push({ type: 'note', description: 'the bundle carries no ETag: nothing to revalidate' });
    await identity.rotate('begin');
    const res = await identity.get(await identity.bundleUri(), { 'if-none-match': etag });
    expect(res.status, '§4.6: If-None-Match with the tag of a bundle that has since changed matches nothing: 200, not 304').toBe(200);
    expect(anchorSet(jsonOf(res) as TrustBundle).length, '§4.6: the 200 carries the changed bundle (the overlap)').toBeGreaterThan(1);
  });

  test('BUNDLE-SEQUENCE-NUMBER across begin and finish, spiffe_sequence never goes down and grows when the anchors change', req('BUNDLE-SEQUENCE-NUMBER'), async ({ identity }) => {
    const bundles = [(await identity.bundle()).bundle];
    for (const phase of ['begin', 'finish'] as const) {
      await identity.rotate(phase);
      bundles.push((await identity.bundle()).bundle);
      expect(sequenceFindings(bundles.at(-2), bundles.at(-1)!).map((f) => f.message), `§2.6: spiffe_sequence across ${phase}`).toEqual([]);
    }
  });

  test('BUNDLE-ROTATION-OVERLAP random begin/finish/fetch sequences: an overlap holds old and new anchors, finish leaves the new', req('BUNDLE-ROTATION-OVERLAP'), async ({ identity, hooks, ctx }) => {
    await rotationProperty(identity, hooks, ctx, (step) => {
      const [prev, next] = [anchorSet(step.prev), anchorSet(step.next)];
      if (step.overlap) expect(next.length, `§2.6: after ${step.command}, inside the overlap, more than one x509-svid entry`).toBeGreaterThan(1);
      if (step.command === 'begin') expect(prev.filter((a) => !next.includes(a)), '§2.6: begin keeps the current anchor').toEqual([]);
      if (step.command === 'finish') {
        const kept = prev.filter((a) => !step.before.includes(a));
        expect(kept.length > 0 && sorted(next).join() === sorted(kept).join(), '§2.6, P5: finish leaves exactly the anchors the overlap added').toBe(true);
      }
    });
  });

  test('BUNDLE-SEQUENCE-NUMBER random begin/finish/fetch sequences: spiffe_sequence never goes down and grows with every change', req('BUNDLE-SEQUENCE-NUMBER'), async ({ identity, hooks, ctx }) => {
    await rotationProperty(identity, hooks, ctx, (step) => {
      expect(sequenceFindings(step.prev, step.next).map((f) => f.message), `§2.6: spiffe_sequence across ${step.command}`).toEqual([]);
    });
  });
});
