// interfaces.md §4.6 and §2.6 (with §1, §5 and §7): the identity role's trust bundle, judged only by what a client
// without credentials is served. Discovery is identity-discovery.spec.ts, rotation identity-rotation.spec.ts.
import { test, expect, isObject, jsonOf } from '../fixtures/identity.ts';
import { NEVER_SENT, revalidate } from '../fixtures/identity-revalidation.ts';
import { warnUnlessStrict } from '../fixtures/errata.ts';
import { req } from '../fixtures/req.ts';
import { anchorFindings, sequenceFindings, x509Anchors } from '../spec/rules/trust-bundle.ts';
import type { TrustBundle } from '../spec/types.ts';
import { x509 } from '../spec/x509.ts';
import { requireThat } from '../fixtures/outcome.ts';
import { sharing } from '../fixtures/shared-state.ts';

// Every check here reads the documents and the anchors they list; a withdrawal or a rotation elsewhere waits for it.
test.use({ shared: { reads: ['identity-documents', 'trust-anchor'] } });

/** The x509-svid entries of `bundle` with their position in `keys`. */
function x509Entries(bundle: TrustBundle): { index: number; key: Record<string, unknown> }[] {
  const keys: unknown[] = Array.isArray(bundle.keys) ? bundle.keys : [];
  return keys.flatMap((key, index) => (isObject(key) && key.use === 'x509-svid' ? [{ index, key }] : []));
}

test.describe('§4.6 GET <trustBundleUri>', () => {
  test('BUNDLE-200 GET the bundle URI answers 200 with the SPIFFE bundle, a JSON object', req('BUNDLE-200'), async ({ identity }) => {
    const res = await identity.get(await identity.bundleUri());
    expect(res.status, '§4.6: GET <trustBundleUri> answers 200 when the bundle is available').toBe(200);
    expect(isObject(jsonOf(res)), '§4.6: the 200 body is the SPIFFE bundle, a JSON object (§2.6)').toBe(true);
  });

  test(
    'BUNDLE-200 If-None-Match with a tag the server never sent answers 200 with the bundle, not 304',
    req('BUNDLE-200'),
    async ({ identity }) => {
      const res = await identity.get(await identity.bundleUri(), { 'if-none-match': NEVER_SENT });
      expect(res.status, '§4.6: 304 is only for an If-None-Match that matches; a tag never sent matches nothing').toBe(200);
      expect(isObject(jsonOf(res)), '§4.6: the 200 body is the bundle').toBe(true);
    },
  );

  test('BUNDLE-ETAG a 200 trust bundle response includes an ETag', req('BUNDLE-ETAG'), async ({ identity }) => {
    const { response } = await identity.bundle();
    expect(response.headers['etag'], '§2.5, §4.6: the bundle resource SHOULD expose an ETag').toBeTruthy();
  });

  test('BUNDLE-304 If-None-Match with the served ETag answers 304 with an empty body', req('BUNDLE-304'), async ({ identity }) => {
    const res = await revalidate(identity, await identity.bundleUri());
    expect(res.status, '§4.6: GET <trustBundleUri> answers 304 when If-None-Match matches').toBe(304);
    expect(res.body.length, '§4.6: the 304 has an empty body').toBe(0);
  });

  test(
    'BUNDLE-404 ERR-BUNDLE-404 GET the bundle URI answers 404 when the bundle is unavailable',
    sharing(req('BUNDLE-404', 'ERR-BUNDLE-404'), { writes: ['identity-documents'] }),
    async ({ identity }) => {
      await identity.whileWithdrawn('bundle', async (url) => {
        expect(
          (await identity.get(url)).status,
          `§4.6, §7: GET <trustBundleUri> answers 404 while the bundle at ${url} is unavailable`,
        ).toBe(404);
      });
    },
  );
});

test.describe('§2.6 trust bundle (SPIFFE bundle, a JWK Set)', () => {
  test('BUNDLE-JWK-SET keys is an array of JWK entries', req('BUNDLE-JWK-SET'), async ({ identity }) => {
    const { bundle } = await identity.bundle();
    expect(Array.isArray(bundle.keys), '§2.6: the bundle is a JWK Set: keys is an array').toBe(true);
    const bad = bundle.keys.findIndex((k) => !isObject(k) || typeof k.kty !== 'string');
    expect(bad, `§2.6: every keys entry is a JWK (an object with kty); keys[${bad}] is not`).toBe(-1);
  });

  test('BUNDLE-KEY-USE-X509 the trust anchors are entries with use x509-svid', req('BUNDLE-KEY-USE-X509'), async ({ identity }) => {
    const { bundle } = await identity.bundle();
    expect(
      x509Entries(bundle).length,
      '§2.6: trust anchor entries have use x509-svid, and a bundle has at least one (§4.6 rule 1)',
    ).toBeGreaterThan(0);
  });

  test(
    'BUNDLE-KEY-X5C each x509-svid entry carries its authority certificate in x5c as base64 DER',
    req('BUNDLE-KEY-X5C'),
    async ({ identity }) => {
      const { bundle } = await identity.bundle();
      const defects = anchorFindings(bundle).filter((f) => f.rule === 'x5c-present' || f.rule === 'x5c-certificate');
      expect(
        defects.map((f) => `${f.path}: ${f.message}`),
        '§2.6: keys[].x5c holds the base64-encoded DER certificate',
      ).toEqual([]);
    },
  );

  test(
    'BUNDLE-KEY-EC-COORDS an EC x509-svid entry carries base64url x and y of its certificate key',
    req('BUNDLE-KEY-EC-COORDS'),
    async ({ identity }) => {
      const { bundle } = await identity.bundle();
      const ec = x509Entries(bundle).filter((e) => e.key.kty === 'EC');
      const b64url = /^[A-Za-z0-9_-]+$/;
      for (const { index, key } of ec) {
        expect(
          typeof key.crv === 'string' && b64url.test(String(key.x)) && b64url.test(String(key.y)),
          `§2.6: keys[${index}] has crv and base64url x, y`,
        ).toBe(true);
      }
      const mismatched = x509Anchors(bundle).ignored.filter(
        (e) => e.rule === 'jwk-matches-certificate' && ec.some((x) => x.index === e.index),
      );
      expect(
        mismatched.map((e) => `keys[${e.index}]: ${e.reason}`),
        '§2.6: x and y are the coordinates of the x5c certificate key',
      ).toEqual([]);
    },
  );
});

test.describe('§2.6 trust bundle: anchors only, sequence number and refresh hint', () => {
  test(
    'BUNDLE-ANCHORS-ONLY an x509-svid entry holds one certificate, never a chain with intermediates',
    req('BUNDLE-ANCHORS-ONLY'),
    async ({ identity }) => {
      const { bundle } = await identity.bundle();
      const chains = anchorFindings(bundle).filter((f) => f.rule === 'x5c-one-certificate');
      expect(
        chains.map((f) => `${f.path}: ${f.message}`),
        '§2.6: X.509 trust anchors only; intermediates travel with the SVID chain',
      ).toEqual([]);
    },
  );

  test(
    'BUNDLE-ANCHORS-ONLY each anchor certificate is a self-issued CA, not an intermediate (errata)',
    req('BUNDLE-ANCHORS-ONLY'),
    async ({ identity, ctx }) => {
      const { bundle } = await identity.bundle();
      for (const anchor of x509Anchors(bundle).anchors) {
        const cert = anchor.certificate;
        const ca = cert.getExtension(x509.BasicConstraintsExtension)?.ca === true;
        const note = `§2.6: keys[${anchor.index}] (${cert.subject}, issued by ${cert.issuer}) is not a self-issued CA certificate: an intermediate`;
        warnUnlessStrict(ctx.strictness, !ca || cert.subject !== cert.issuer, note);
      }
    },
  );

  test(
    'BUNDLE-SEQUENCE-NUMBER spiffe_sequence, when present, is a number (a non-negative integer)',
    req('BUNDLE-SEQUENCE-NUMBER'),
    async ({ identity }) => {
      const { bundle } = await identity.bundle();
      expect(
        sequenceFindings(undefined, bundle).map((f) => f.message),
        '§2.6: spiffe_sequence is the bundle sequence number',
      ).toEqual([]);
    },
  );

  test(
    'BUNDLE-REFRESH-HINT-OPTIONAL spiffe_refresh_hint, when present, is a number',
    req('BUNDLE-REFRESH-HINT-OPTIONAL'),
    async ({ identity }) => {
      const { bundle } = await identity.bundle();
      const hint: unknown = bundle.spiffe_refresh_hint;
      expect(
        hint === undefined || (typeof hint === 'number' && Number.isFinite(hint)),
        `§2.6: spiffe_refresh_hint is a number, got ${JSON.stringify(hint)}`,
      ).toBe(true);
    },
  );
});

// Last in the file: a faulty role that obeys a write changes what the later tests would read.
test.describe('§1 read-only identity endpoints', () => {
  test(
    'DISC-READ-ONLY PUT, POST and DELETE never change the discovery document or the trust bundle',
    req('DISC-READ-ONLY'),
    async ({ identity }) => {
      const url = identity.discoveryUrl();
      const bundleUri = await identity.bundleUri();
      const before = await identity.get(url);
      requireThat('DISC-200', before.status === 200, `GET discovery answered ${before.status}`);
      const written = { keys: [], trustDomain: 'written.by.wfmck', trustBundleUri: 'https://127.0.0.1/written-by-wfmck' };
      for (const target of [url, bundleUri]) {
        for (const method of ['PUT', 'POST', 'DELETE'])
          await identity.request({ method, url: target, ...(method === 'DELETE' ? {} : { json: written }) });
      }
      const after = await identity.get(url);
      expect([after.status, after.text()], '§1: a write request never changes the discovery document').toEqual([200, before.text()]);
      const { bundle } = await identity.bundle();
      expect(x509Entries(bundle).length, '§1: a write request never replaces the trust bundle (it still has its anchors)').toBeGreaterThan(
        0,
      );
    },
  );
});
