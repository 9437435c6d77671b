// P10: the client's check of the server's SVID, over a real TLS handshake against each impostor the device persona
// uses, and the leniencies the kit's faulty client takes (each one lets exactly its impostor through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { createRootCa } from '../../protocol/pki.ts';
import { startImpostorWfm, type ImpostorKind } from '../../scripted/impostor-wfm.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';
import { spiffeIdentityCheck, type SpiffeCheckLeniency } from '../../simulators/transport/spiffe-identity-check.ts';
import type { TransportError } from '../../simulators/transport/types.ts';
import { wfmSpiffeId } from '../../spec/spiffe-id.ts';

const who = { trustDomain: 'example.org', vendor: 'acme', wfmId: 'w1' };

async function connects(kind: ImpostorKind, lenient: SpiffeCheckLeniency = {}): Promise<boolean> {
  const ca = await createRootCa('wfmck test SVID CA');
  const impostor = await startImpostorWfm(ca, who, kind);
  const agent = new Agent({ connect: { ca: ca.certPem, checkServerIdentity: spiffeIdentityCheck(wfmSpiffeId(who), lenient) } });
  try {
    await (await request(`${impostor.url}/api/v1/capabilities/x`, { dispatcher: agent })).body.dump();
    return true;
  } catch {
    return false;
  } finally {
    await agent.close();
    await impostor.close();
  }
}

test("a CA certificate as the leaf is refused, though OpenSSL's own CA test (it wants keyCertSign) calls it no CA", async () => {
  assert.equal(await connects('ca-as-leaf'), false);
  assert.equal(await connects('ca-as-leaf', { caLeaf: true }), true);
});

test('another trust domain, another wfm-id and a second URI SAN are refused; each leniency lets its own impostor through', async () => {
  assert.equal(await connects('other-trust-domain'), false);
  assert.equal(await connects('other-trust-domain', { trustDomain: true }), true);
  assert.equal(await connects('two-uri-sans'), false);
  assert.equal(await connects('two-uri-sans', { firstUri: true }), true);
  assert.equal(await connects('other-wfm-id', { trustDomain: true, firstUri: true }), false);
});

test('an expired SVID is refused by the TLS stack before the identity check', async () => {
  assert.equal(await connects('expired', { caLeaf: true, trustDomain: true, firstUri: true }), false);
});

test('the transport names the refusal of a server SPIFFE ID with its own code, never retried: WFMCK_E_SERVER_IDENTITY', async () => {
  const ca = await createRootCa('wfmck test SVID CA');
  const impostor = await startImpostorWfm(ca, who, 'other-wfm-id');
  const t = createTransport({ ca: ca.certPem, serverSpiffeId: wfmSpiffeId(who) });
  try {
    await assert.rejects(
      t.request({ method: 'GET', url: `${impostor.url}/api/v1/capabilities/x`, retry: 'idempotent' }),
      (e: TransportError) => {
        assert.equal(e.code, 'WFMCK_E_SERVER_IDENTITY');
        assert.equal(e.exchange.error?.code, 'WFMCK_E_SERVER_IDENTITY');
        assert.equal(e.exchange.attempt, 1);
        assert.match(e.message, /not the WFM spiffe:\/\/example\.org\/acme\/wfm\/w1/);
        return true;
      },
    );
  } finally {
    await t.close();
    await impostor.close();
  }
});
