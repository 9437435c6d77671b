// Persona device, profiles.md P10 (miaf): the client's side of mutual TLS. It presents its X.509-SVID, and it talks
// only to a server whose SPIFFE ID is exactly its WFM's.
import { readFileSync } from 'node:fs';
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { startImpostorWfm } from '../../fixtures/impostor-wfm.ts';
import { spiffeTarget } from '../../fixtures/svid.ts';
import { loadIssued } from '../../reference/pki.ts';
import { setup, skipFor, skipIf } from '../../fixtures/outcome.ts';

test.describe('P10 the client under test over mutual TLS', () => {
  test('MIAF-CLIENT-SVID the client\'s requests come over connections proving the SPIFFE ID the kit gave it', req('MIAF-CLIENT-SVID'), async ({ clientUnderTest }) => {
    const client = await clientUnderTest();
    const answered = await client.waitFor('a request the WFM answered over its SVID', (xs) => xs.find((x) => x.who === client.who && x.status < 400));
    expect(answered.who, 'P10: the connection proved the client SPIFFE ID').toBe(client.who);
  });

  test('MIAF-CLIENT-CHECKS-SERVER-ID given a server with a valid SVID of another wfm-id, the client aborts: no HTTP request reaches it', req('MIAF-CLIENT-CHECKS-SERVER-ID'), async ({ clientUnderTest, ctx, profile }) => {
    const t = spiffeTarget(ctx, profile);
    if ('missing' in t) skipFor('disabled', t.missing);
    skipIf(!ctx.deviceCa, 'disabled', 'needs the SVID CA the client trusts, to mint the impostor\'s SVID');
    const ca = await loadIssued(readFileSync(ctx.deviceCa!.certFile, 'utf8'), readFileSync(ctx.deviceCa!.keyFile, 'utf8'));
    const impostor = await startImpostorWfm(ca, t);
    try {
      await clientUnderTest({ wfm: impostor.url });
      // It did try (a connection), and then a while for a request that must not come.
      await setup('CAP-FIRST-EXCHANGE', 'the client connected to the WFM it was given', () => expect.poll(() => impostor.connections, { message: 'the client connected to the WFM it was given (the impostor)', timeout: 20_000 }).toBeGreaterThan(0));
      await new Promise((r) => setTimeout(r, 2_000));
      expect(impostor.requests, `P10: ${impostor.spiffeId} is not the client's WFM; it must abort before any request`).toEqual([]);
    } finally {
      await impostor.close();
    }
  });
});
