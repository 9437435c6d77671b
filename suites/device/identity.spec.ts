// Persona device, interfaces.md §4.5, §4.6 and §5: how the client reads its discovery document and trust bundle.
// Each check gives the client an identity role of its own (scripted/identity.ts) as operator configuration,
// scripts what it answers, and judges the requests it receives: their headers, their cadence, and the endpoints
// the client must never send a request to.
import { test, expect, trustDomainOf } from '../../fixtures/scripted-stage.ts';
import { req } from '../../fixtures/req.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';
import { anchorBundle, type IdentityRequest, type ScriptedIdentity } from '../../scripted/identity.ts';
import { setup, skipFor, skipIf } from '../../fixtures/outcome.ts';

/** How long a check waits for a request that must not come, once the client has shown it is running. */
const QUIET_MS = 3_000;
/** A hinted or configured interval of one second; a gap up to this long still counts as "at" the interval. */
const INTERVAL_S = 1;
const GAP_SLACK_MS = 2_500;

/** §4.5: Accept, when sent, names application/json (parameters aside). */
function acceptFinding(r: IdentityRequest, id: string): TaggedFinding[] {
  const accept = r.headers['accept'];
  if (accept === undefined) return [];
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.every((t) => t === 'application/json')
    ? []
    : [{ id, message: `${r.resource} request #${r.atMs} ms sent Accept: ${accept}` }];
}

/** §4.5: If-None-Match, when sent, is the ETag of the last document retrieved (the last 200 before it). */
function ifNoneMatchFindings(requests: IdentityRequest[], id: string): TaggedFinding[] {
  const out: TaggedFinding[] = [];
  let last: string | undefined;
  for (const r of requests) {
    const sent = r.headers['if-none-match'];
    if (sent !== undefined && sent !== last)
      out.push({
        id,
        message: `the ${r.resource} request at ${r.atMs} ms sent If-None-Match: ${sent}, but the last ${r.resource} retrieved carried ETag ${last ?? '(none yet)'}`,
      });
    if (r.status === 200) last = r.etag;
  }
  return out;
}

/**
 * Waits until the client shows it uses the identity role it was given (`what`). One that never does leaves nothing to
 * judge: discovery is optional (§4.5) and a bundle may come by other means (§4.6 rule 5), so the check is skipped as
 * unsupported by the client, with what it sent as evidence, never failed.
 */
async function uses(count: () => number, what: string, timeout = 20_000): Promise<void> {
  try {
    await expect.poll(count, { message: what, timeout }).toBeGreaterThan(0);
  } catch {
    skipFor('unsupported', `the client never ${what} within ${timeout / 1000} s`);
  }
}

/** Waits for `count` bundle requests and returns the gaps between them (ms). */
async function bundleGaps(identity: ScriptedIdentity, count: number): Promise<number[]> {
  await expect
    .poll(() => identity.of('bundle').length, { message: `the client retrieved its bundle ${count} times`, timeout: 15_000 })
    .toBeGreaterThanOrEqual(count);
  const at = identity.of('bundle').map((r) => r.atMs);
  return at.slice(1).map((t, i) => t - at[i]!);
}

test.describe('§4.5 §4.6 the client reads its discovery document and trust bundle', () => {
  test(
    'DISC-ACCEPT-JSON BUNDLE-ACCEPT-JSON discovery and bundle requests ask for application/json',
    req('DISC-ACCEPT-JSON', 'BUNDLE-ACCEPT-JSON'),
    async ({ clientUnderTest, identityRole }) => {
      const identity = await identityRole();
      await clientUnderTest({ extraCaPem: identity.caPem, identity: { discoveryUrl: identity.discoveryUrl } });
      await uses(() => identity.of('bundle').length, 'read discovery, then its bundle');
      expectEach(
        [
          ...identity.of('discovery').flatMap((r) => acceptFinding(r, 'DISC-ACCEPT-JSON')),
          ...identity.of('bundle').flatMap((r) => acceptFinding(r, 'BUNDLE-ACCEPT-JSON')),
        ],
        '§4.5, §4.6: Accept SHOULD be application/json',
      );
    },
  );

  test(
    'DISC-CLIENT-IGNORE-UNKNOWN a discovery document with fields §2.5 does not name still leads the client to its bundle',
    req('DISC-CLIENT-IGNORE-UNKNOWN'),
    async ({ clientUnderTest, identityRole }) => {
      const identity = await identityRole();
      identity.script.discovery = {
        ...identity.script.discovery,
        jwksUri: `${identity.origin}/jwks`,
        'x-acme-note': { region: 'eu' },
        version: 2,
      };
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      await uses(() => identity.of('discovery').length, 'read the discovery document');
      await expect
        .poll(() => identity.of('bundle').length, {
          message: '§2.5: unknown fields are ignored; the client goes on to trustBundleUri',
          timeout: QUIET_MS * 2,
        })
        .toBeGreaterThan(0);
    },
  );

  test(
    'DISC-OPERATOR-CONFIG without discovery the client retrieves the bundle at the URI its operator configured',
    req('DISC-OPERATOR-CONFIG'),
    async ({ clientUnderTest, identityRole }) => {
      const identity = await identityRole();
      await clientUnderTest({ extraCaPem: identity.caPem, identity: { trustBundleUri: identity.bundleUrl } });
      await expect
        .poll(() => identity.of('bundle').length, { message: '§4.5: the configured trust bundle URI is retrieved', timeout: 20_000 })
        .toBeGreaterThan(0);
      expect(identity.of('discovery'), 'no discovery URL was configured').toEqual([]);
    },
  );

  test(
    'BUNDLE-CLIENT-HTTPS-ONLY a discovery document naming an http:// trustBundleUri gets no request there',
    req('BUNDLE-CLIENT-HTTPS-ONLY'),
    async ({ clientUnderTest, identityRole }) => {
      const identity = await identityRole();
      const plain = await identityRole({ plainHttp: true });
      identity.script.discovery = { ...identity.script.discovery, trustBundleUri: plain.bundleUrl };
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      await uses(() => identity.of('discovery').length, 'read the discovery document');
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(
        plain.requests.map((r) => `${r.method} ${r.path}`),
        `§4.6: ${plain.bundleUrl} is not https; the client rejects it`,
      ).toEqual([]);
    },
  );
});

test.describe('§4.5 §4.6 conditional retrievals, and a discovery document of another trust domain', () => {
  test(
    'DISC-IF-NONE-MATCH BUNDLE-IF-NONE-MATCH a conditional request carries the ETag of the last document retrieved',
    req('DISC-IF-NONE-MATCH', 'BUNDLE-IF-NONE-MATCH'),
    async ({ clientUnderTest, ctx, identityRole }) => {
      const identity = await identityRole();
      identity.script.bundle = await anchorBundle(trustDomainOf(ctx), { spiffe_refresh_hint: INTERVAL_S });
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      await uses(() => identity.of('bundle').length, 'retrieved a first bundle');
      // New representations of both documents: a client now holds an older ETag than the server's.
      // (the same bundle under an equivalent URL: the server routes by path).
      identity.script.discovery = { ...identity.script.discovery, trustBundleUri: `${identity.bundleUrl}?v=2` };
      identity.script.bundle = await anchorBundle(trustDomainOf(ctx), { spiffe_sequence: 2, spiffe_refresh_hint: INTERVAL_S });
      const changedAt = identity.requests.at(-1)!.atMs;
      const after = (resource: IdentityRequest['resource']) => identity.of(resource).filter((r) => r.atMs > changedAt).length;
      // The bundle comes again at the 1 s cadence (BUNDLE-REFRESH-HINT's own check); discovery only if the client reads
      // it again, which no rule asks: its requests are judged when they come.
      await setup('BUNDLE-REFRESH-HINT', 'two more bundle retrievals after the documents changed', () =>
        expect
          .poll(() => after('bundle'), { message: 'the client retrieved its bundle twice more at the 1 s hint', timeout: 15_000 })
          .toBeGreaterThanOrEqual(2),
      );
      const sent = identity.requests.filter((r) => r.headers['if-none-match'] !== undefined).length;
      test.info().annotations.push({
        type: 'note',
        description: `${sent} of ${identity.requests.length} identity requests were conditional (MAY: judged only when sent)`,
      });
      expectEach(
        [
          ...ifNoneMatchFindings(identity.of('discovery'), 'DISC-IF-NONE-MATCH'),
          ...ifNoneMatchFindings(identity.of('bundle'), 'BUNDLE-IF-NONE-MATCH'),
        ],
        '§4.5, §4.6: If-None-Match names the last retrieved document',
      );
    },
  );

  test(
    "BUNDLE-TRUSTDOMAIN-MATCH a discovery document of another trust domain than the client's SVID is a configuration error: no bundle is retrieved",
    req('BUNDLE-TRUSTDOMAIN-MATCH'),
    async ({ clientUnderTest, ctx, profile, identityRole }) => {
      skipIf(
        profile.edition !== 'miaf',
        'other-edition',
        'rule 6 is for a client holding an SVID; a seed client holds a device certificate',
      );
      const identity = await identityRole();
      identity.script.discovery = { ...identity.script.discovery, trustDomain: `elsewhere.${trustDomainOf(ctx)}` };
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      await uses(() => identity.of('discovery').length, 'read the discovery document');
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(
        identity.of('bundle').map((r) => `${r.method} ${r.path}`),
        '§4.6 rule 6: the document names another trust domain; the client stops there',
      ).toEqual([]);
    },
  );
});

test.describe('§4.6 rule 4 the client refreshes its bundle on its own cadence', () => {
  test(
    'BUNDLE-REFRESH-HINT the client retrieves the bundle again at spiffe_refresh_hint (1 s), though its operator interval is an hour',
    req('BUNDLE-REFRESH-HINT'),
    async ({ clientUnderTest, ctx, identityRole }) => {
      const identity = await identityRole();
      identity.script.bundle = await anchorBundle(trustDomainOf(ctx), { spiffe_refresh_hint: INTERVAL_S });
      await clientUnderTest({ extraCaPem: identity.caPem, identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: 3600 } });
      const gaps = await bundleGaps(identity, 3);
      expect(Math.max(...gaps), `§4.6 rule 4: gaps ${gaps.join(', ')} ms for a hint of ${INTERVAL_S} s`).toBeLessThanOrEqual(
        INTERVAL_S * 1000 + GAP_SLACK_MS,
      );
    },
  );

  test(
    'BUNDLE-REFRESH-CONFIGURED without a hint the client retrieves the bundle again at its operator interval (1 s)',
    req('BUNDLE-REFRESH-CONFIGURED'),
    async ({ clientUnderTest, identityRole }) => {
      const identity = await identityRole();
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      const gaps = await bundleGaps(identity, 3);
      expect(Math.max(...gaps), `§4.6 rule 4: gaps ${gaps.join(', ')} ms for an interval of ${INTERVAL_S} s`).toBeLessThanOrEqual(
        INTERVAL_S * 1000 + GAP_SLACK_MS,
      );
    },
  );

  test(
    'BUNDLE-REFRESH-NOT-DEFERRED a bundle cached for a day by HTTP (Cache-Control, Expires) is still retrieved at its hint',
    req('BUNDLE-REFRESH-NOT-DEFERRED'),
    async ({ clientUnderTest, ctx, identityRole }) => {
      const identity = await identityRole();
      identity.script.bundle = await anchorBundle(trustDomainOf(ctx), { spiffe_refresh_hint: INTERVAL_S });
      identity.script.bundleHeaders = {
        'cache-control': 'public, max-age=86400',
        expires: new Date(Date.now() + 86_400_000).toUTCString(),
      };
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      const gaps = await bundleGaps(identity, 3);
      expect(Math.max(...gaps), `§4.6 rule 4: HTTP caching must not defer the cadence; gaps ${gaps.join(', ')} ms`).toBeLessThanOrEqual(
        INTERVAL_S * 1000 + GAP_SLACK_MS,
      );
    },
  );
});

test.describe("§5 the identity endpoints are authenticated by the client's initial trust", () => {
  test(
    "AUTH-IDENTITY-INITIAL-TRUST a discovery endpoint whose certificate the client's initial trust does not cover gets no request",
    req('AUTH-IDENTITY-INITIAL-TRUST'),
    async ({ clientUnderTest, identityRole }) => {
      const stranger = await identityRole();
      // Its CA is not given to the client.
      await clientUnderTest({ identity: { discoveryUrl: stranger.discoveryUrl, refreshSeconds: INTERVAL_S } });
      await uses(() => stranger.connections, 'connected to the discovery endpoint it was given');
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(
        stranger.requests.map((r) => `${r.method} ${r.path}`),
        '§5: HTTPS authenticated by the initial trust; an unknown certificate ends the handshake',
      ).toEqual([]);
    },
  );

  test(
    "BUNDLE-CROSS-ORIGIN-TRUST a trust bundle on another origin whose certificate the client's initial trust does not cover gets no request",
    req('BUNDLE-CROSS-ORIGIN-TRUST'),
    async ({ clientUnderTest, identityRole }) => {
      const identity = await identityRole();
      const stranger = await identityRole();
      identity.script.discovery = { ...identity.script.discovery, trustBundleUri: stranger.bundleUrl };
      await clientUnderTest({
        extraCaPem: identity.caPem,
        identity: { discoveryUrl: identity.discoveryUrl, refreshSeconds: INTERVAL_S },
      });
      await uses(() => identity.of('discovery').length, 'read the discovery document');
      // A client may refuse the origin before it connects, or in the handshake: either way no request arrives there.
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(
        stranger.requests.map((r) => `${r.method} ${r.path}`),
        `§4.6 rule 7: ${stranger.origin} is not covered by the client's initial trust`,
      ).toEqual([]);
    },
  );
});
