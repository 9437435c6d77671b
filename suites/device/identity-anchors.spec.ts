// Persona device, interfaces.md §2.6 and §4.6 rules 1-3 and 5, edition miaf: what the client does with the anchors of
// its trust bundle. Each check gives the client an identity role (scripted/identity.ts) and a WFM
// (scripted/wfm.ts) of its own: the WFM's SVID is issued by a CA the test puts in, or leaves out of, the
// bundle, and it closes every connection after its answer, so whether a request arrives shows whether the client's
// anchors at that moment validate the WFM.
import { test, expect } from '../../fixtures/scripted-stage.ts';
import { req } from '../../fixtures/req.ts';
import { expectEach, judgeAs } from '../../fixtures/expect-each.ts';
import { setup } from '../../fixtures/outcome.ts';
import type { ScriptedIdentity } from '../../scripted/identity.ts';
import type { ScriptedWfm } from '../../scripted/wfm.ts';
import { jwtSvidJwk } from '../../protocol/bundle-jwk.ts';
import type { BundleJwk } from '../../spec/types.ts';

/** How long the WFM's silence (or its traffic) is watched once the client holds the bundle under test. */
const WATCH_MS = 2_500;
/** A request already under way when the client took a new bundle may still land: not counted. */
const GRACE_MS = 1_000;

function plain(keys: BundleJwk[], sequence = 1): unknown {
  return { spiffe_sequence: sequence, spiffe_refresh_hint: 1, keys };
}

/**
 * Waits until the client retrieved its bundle again after `mark` (a request, or for an offline endpoint an attempt cut):
 * the bundle hints 1 s, so a client that never comes back is BUNDLE-REFRESH-HINT's finding, and this check is blocked.
 */
async function retrievedSince(identity: ScriptedIdentity, mark: { requests: number; refusals: number }, offline = false): Promise<void> {
  await setup('BUNDLE-REFRESH-HINT', 'the client went back to its trust bundle endpoint', () =>
    expect
      .poll(
        () => (offline ? identity.refusals > mark.refusals : identity.requests.slice(mark.requests).some((r) => r.resource === 'bundle')),
        { message: 'the client went back to its trust bundle endpoint (refresh hint 1 s)', timeout: 10_000 },
      )
      .toBe(true),
  );
}

function markOf(identity: ScriptedIdentity): { requests: number; refusals: number } {
  return { requests: identity.requests.length, refusals: identity.refusals };
}

/** Requests the WFM received in a watch window starting a grace period from now. */
async function requestsInWindow(wfm: ScriptedWfm): Promise<number> {
  const from = wfm.now() + GRACE_MS;
  await new Promise((r) => setTimeout(r, GRACE_MS + WATCH_MS));
  return wfm.since(from);
}

async function talking(wfm: ScriptedWfm, what: string): Promise<void> {
  const from = wfm.now();
  await expect.poll(() => wfm.since(from), { message: what, timeout: 20_000 }).toBeGreaterThan(0);
}

/** A precondition: with a bundle whose anchor validates it, the client talks to its WFM (its first exchange, CAP-FIRST-EXCHANGE). */
function reaches(wfm: ScriptedWfm): Promise<void> {
  return setup('CAP-FIRST-EXCHANGE', 'with a bundle whose anchor validates its WFM, the client reaches it', () =>
    talking(wfm, 'the client reaches its WFM with a bundle whose anchor validates it'),
  );
}

test.describe('§4.6 the client validates its WFM against the anchors of its trust bundle (miaf)', () => {
  test(
    'BUNDLE-CLIENT-TOLERATE-UNKNOWN a bundle with members §2.6 does not name is used: the client reaches the WFM its anchor validates',
    req('BUNDLE-CLIENT-TOLERATE-UNKNOWN'),
    async ({ stage }) => {
      const s = await stage(({ anchor }) => ({
        spiffe_sequence: 1,
        spiffe_refresh_hint: 1,
        keys: [{ ...anchor, 'x-acme-note': 'rotated weekly' }],
        'x-acme-issuer': { region: 'eu-west' },
        spiffe_comment: 'fixture',
      }));
      await talking(s.wfm, "§2.6: unknown members are tolerated; the bundle's anchor validates the WFM and the client sends requests");
    },
  );

  test(
    'BUNDLE-IGNORE-NON-X509 a CA that comes only as a jwt-svid entry, or an entry of another use, validates nothing',
    req('BUNDLE-IGNORE-NON-X509'),
    async ({ stage }) => {
      const s = await stage(({ anchor, other }) =>
        plain([other, { ...anchor, use: 'jwt-svid', kid: 'wfmck-jwt' }, { ...anchor, use: 'x-wfmck-other' }]),
      );
      await retrievedSince(s.identity, { requests: 0, refusals: 0 });
      await setup('CAP-FIRST-EXCHANGE', 'the client tried to reach its WFM', () =>
        expect.poll(() => s.wfm.connections, { message: 'the client tried to reach its WFM', timeout: 20_000 }).toBeGreaterThan(0),
      );
      expect(
        await requestsInWindow(s.wfm),
        "§2.6: the WFM's CA is in the bundle only under use jwt-svid and x-wfmck-other; ignored, it validates nothing",
      ).toBe(0);
    },
  );
});

test.describe('§4.6 rules 1-3 and 5 the anchors the client keeps, caches and replaces (miaf)', () => {
  test(
    'BUNDLE-REJECT-NO-ANCHORS BUNDLE-KEEP-CURRENT BUNDLE-OFFLINE-KEEP-CACHED a bundle without an X.509 anchor, an error answer and an unreachable endpoint each leave the current anchors in use',
    req('BUNDLE-REJECT-NO-ANCHORS', 'BUNDLE-KEEP-CURRENT', 'BUNDLE-OFFLINE-KEEP-CACHED'),
    async ({ stage }) => {
      const s = await stage(({ anchor }) => plain([anchor]));
      const { identity, wfm } = s;
      const good = identity.script.bundle;
      const jwtOnly = plain([await jwtSvidJwk()], 2);
      await reaches(wfm);
      // One phase after another, each its requirement's own check: a client that stops validating is that phase's
      // finding; the phases after it never ran, so their requirements are blocked, not failed (judgeAs).
      const phases: [string, string, () => void, () => void, boolean][] = [
        [
          'BUNDLE-REJECT-NO-ANCHORS',
          'a bundle whose only key is a jwt-svid entry (rule 1)',
          () => void (identity.script.bundle = jwtOnly),
          () => void (identity.script.bundle = good),
          false,
        ],
        [
          'BUNDLE-KEEP-CURRENT',
          'the bundle endpoint answering 503 (rule 2)',
          () => void (identity.script.bundleStatus = 503),
          () => void delete identity.script.bundleStatus,
          false,
        ],
        [
          'BUNDLE-OFFLINE-KEEP-CACHED',
          'the bundle endpoint unreachable (rule 5)',
          () => void (identity.script.offline = true),
          () => void (identity.script.offline = false),
          true,
        ],
      ];
      for (const [id, what, apply, undo, offline] of phases) {
        const mark = markOf(identity);
        apply();
        await retrievedSince(identity, mark, offline);
        const seen = await requestsInWindow(wfm);
        undo();
        await judgeAs(id, () =>
          expect(
            seen,
            `§4.6 rules 1, 2 and 5: after ${what} the WFM got no request in ${WATCH_MS / 1000} s: the client stopped validating it with its current anchors`,
          ).toBeGreaterThan(0),
        );
      }
    },
  );

  test(
    'BUNDLE-CACHE-LOCAL restarted while its trust bundle endpoint is unreachable, the client validates its WFM with the bundle it cached',
    req('BUNDLE-CACHE-LOCAL'),
    async ({ stage, hooks }) => {
      hooks.require('stopClient');
      const s = await stage(({ anchor }) => plain([anchor]));
      await reaches(s.wfm);
      const mark = markOf(s.identity);
      // Its initial trust covers the identity role, never the WFM: after the restart only a cached bundle validates it.
      await s.client.restart({ loseState: false, whileDown: async () => void (s.identity.script.offline = true) });
      await retrievedSince(s.identity, mark, true);
      expect(
        await requestsInWindow(s.wfm),
        `§4.6 rule 5: restarted with its bundle endpoint unreachable, the client got no request to its WFM in ${WATCH_MS / 1000} s: it kept no bundle across the restart`,
      ).toBeGreaterThan(0);
    },
  );

  test(
    'BUNDLE-REPLACE-ANCHORS BUNDLE-NO-COMBINE after a rotation to a bundle of another CA alone, the WFM only the old CA validates gets no request',
    req('BUNDLE-REPLACE-ANCHORS', 'BUNDLE-NO-COMBINE'),
    async ({ stage }) => {
      const s = await stage(({ anchor }) => plain([anchor]));
      await reaches(s.wfm);
      const mark = markOf(s.identity);
      s.identity.script.bundle = plain([s.other], 2);
      await retrievedSince(s.identity, mark);
      const seen = await requestsInWindow(s.wfm);
      const message = `after the bundle of CA "other" alone, the WFM (SVID of CA "anchor") still got ${seen} requests in ${WATCH_MS / 1000} s`;
      expectEach(
        seen === 0
          ? []
          : [
              { id: 'BUNDLE-REPLACE-ANCHORS', message },
              { id: 'BUNDLE-NO-COMBINE', message },
            ],
        '§4.6 rule 3: the retrieved anchors replace the old ones, never join them',
      );
    },
  );
});
