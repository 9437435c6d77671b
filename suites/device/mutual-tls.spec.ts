// Persona device, profiles.md P10 (miaf): the client's side of mutual TLS. It presents its X.509-SVID, and it talks
// only to a server whose SPIFFE ID is exactly its WFM's, over TLS 1.3 and HTTP/1.1.
import { readFileSync } from 'node:fs';
import { test, expect } from '../../fixtures/staged.ts';
import { req } from '../../fixtures/req.ts';
import { startImpostorWfm, type ImpostorKind } from '../../scripted/impostor-wfm.ts';
import { spiffeTarget } from '../../fixtures/svid.ts';
import { loadIssued } from '../../protocol/pki.ts';
import { setup, skipFor, skipIf } from '../../fixtures/outcome.ts';
import { warnUnlessStrict } from '../../fixtures/errata.ts';
import { isCapabilitiesPut, pathOf } from '../../fixtures/client-under-test.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';

test.describe('P10 the client under test over mutual TLS', () => {
  test(
    "MIAF-CLIENT-SVID the client's requests come over connections proving the SPIFFE ID the kit gave it",
    req('MIAF-CLIENT-SVID'),
    async ({ clientUnderTest }) => {
      const client = await clientUnderTest();
      const answered = await client.waitFor('a request the WFM answered over its SVID', (xs) =>
        xs.find((x) => x.who === client.who && x.status < 400),
      );
      expect(answered.who, 'P10: the connection proved the client SPIFFE ID').toBe(client.who);
    },
  );

  /** Each impostor, by the requirement its refusal shows: the server's identity (its one SPIFFE ID) or its SVID's validity. */
  const IMPOSTORS: [string, ImpostorKind, string][] = [
    ['MIAF-CLIENT-CHECKS-SERVER-ID', 'other-wfm-id', 'a valid SVID of another wfm-id'],
    ['MIAF-CLIENT-CHECKS-SERVER-ID', 'other-trust-domain', "an SVID of the WFM's path in another trust domain"],
    ['MIAF-CLIENT-CHECKS-SERVER-ID', 'two-uri-sans', "an SVID with two URI SANs, the first the WFM's"],
    ['MIAF-CLIENT-VERIFIES-SERVER-SVID', 'expired', 'an expired SVID of the WFM'],
    ['MIAF-CLIENT-VERIFIES-SERVER-SVID', 'ca-as-leaf', 'a CA certificate as the leaf, naming the WFM'],
  ];
  for (const [id, kind, what] of IMPOSTORS) {
    test(
      `${id} given a server with ${what} (chained to its bundle), the client aborts: no HTTP request reaches it`,
      req(id),
      async ({ clientUnderTest, ctx, profile, staged }) => {
        const t = spiffeTarget(ctx, profile);
        if ('missing' in t) skipFor('disabled', t.missing);
        skipIf(!ctx.deviceCa, 'disabled', "needs the SVID CA the client trusts, to mint the impostor's certificate");
        const ca = await loadIssued(readFileSync(ctx.deviceCa!.certFile, 'utf8'), readFileSync(ctx.deviceCa!.keyFile, 'utf8'));
        const impostor = await staged(startImpostorWfm(ca, t, kind));
        await clientUnderTest({ wfm: impostor.url });
        // It did try (a connection), and then a while for a request that must not come.
        await setup('CAP-FIRST-EXCHANGE', 'the client connected to the WFM it was given', () =>
          expect
            .poll(() => impostor.connections, { message: 'the client connected to the WFM it was given (the impostor)', timeout: 20_000 })
            .toBeGreaterThan(0),
        );
        await new Promise((r) => setTimeout(r, 2_000));
        expect(impostor.requests, `P10: ${what} is not the client's WFM; it must abort before any request`).toEqual([]);
      },
    );
  }
});

test.describe("P10 the client's TLS and HTTP versions", () => {
  test(
    "MIAF-CLIENT-TLS13-HTTP11 every request of the client comes over TLS 1.3 (the kit's WFM offers it) as HTTP/1.1",
    req('MIAF-CLIENT-TLS13-HTTP11'),
    async ({ clientUnderTest, ctx }) => {
      const client = await clientUnderTest();
      const exchanges = await client.waitFor(
        'its capabilities',
        (xs) => (xs.some(isCapabilitiesPut) ? xs : undefined),
        undefined,
        'CAP-FIRST-EXCHANGE',
      );
      const line = (x: RecordedExchange) => `#${x.seq} ${x.method} ${pathOf(x)} over ${x.tls ?? 'no TLS'}, HTTP/${x.http ?? '?'}`;
      expect(exchanges.filter((x) => x.http !== '1.1' || x.tls === undefined).map(line), 'P10: HTTP/1.1 over mutual TLS').toEqual([]);
      const below = exchanges.filter((x) => x.tls !== 'TLSv1.3');
      warnUnlessStrict(
        ctx.strictness,
        below.length > 0,
        `P10: TLS 1.3 by default, 1.2 only as a fallback; the kit's WFM offers 1.3 and ${below.length} request(s) came over an older version: ${below.slice(0, 3).map(line).join('; ')}`,
      );
    },
  );
});
