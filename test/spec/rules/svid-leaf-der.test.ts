// The WFM's fast read of a client SVID (DER) and @peculiar/x509's read must give the same P10 facts for every leaf the
// kit makes, good and bad; where the fast read does not know a shape it answers undefined, never a wrong fact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BAD_SVID_KINDS,
  createSvidCa,
  issueBadSvid,
  issueSvid,
  nativeSvidIssuer,
  unsupportedPublicKey,
} from '../../../protocol/svid-issuer.ts';
import { derOfPem, issueCertificate, type KeyAlgorithm } from '../../../protocol/pki.ts';
import { svidLeafFacts, svidLeafFindings } from '../../../spec/rules/svid-leaf.ts';
import { svidLeafFactsOfDer } from '../../../spec/rules/svid-leaf-der.ts';
import { clientSpiffeId } from '../../../spec/spiffe-id.ts';
import { x509 } from '../../../spec/x509.ts';
import { fcOptions } from '../../support/fc.ts';

const TD = 'wfmck.test';
const ID = clientSpiffeId({ trustDomain: TD, vendor: 'platform', wfmId: 'wfm-1', clientId: 'dev-1' });
const ca = await createSvidCa({ trustDomain: TD, intermediate: true });

/** Leaves of every shape the kit makes, by name, as DER. */
async function leaves(): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const der = (pem: string) => new Uint8Array(derOfPem(pem));
  for (const keyAlgorithm of ['P-256', 'P-384', 'Ed25519', 'RSA-3072'] as KeyAlgorithm[]) {
    out.set(`issueSvid ${keyAlgorithm}`, der((await issueSvid(ca, ID, { keyAlgorithm })).certPem));
  }
  const native = nativeSvidIssuer(ca);
  for (const keyAlgorithm of ['P-256', 'P-384', 'Ed25519'] as KeyAlgorithm[])
    out.set(`native ${keyAlgorithm}`, der(native(ID, keyAlgorithm).certPem));
  for (const kind of BAD_SVID_KINDS) out.set(`bad ${kind}`, der((await issueBadSvid(ca, kind, ID)).certPem));
  const named = await issueCertificate(ca.root, { commonName: 'x', uris: [ID, 'https://example.test/a'], dnsNames: [TD, 'localhost'] });
  out.set('URIs and DNS names', der(named.certPem));
  out.set('a CA certificate', der(ca.intermediate!.certPem));
  out.set('ipAddresses', der((await issueCertificate(ca.root, { commonName: 'x', uris: [ID], ipAddresses: ['127.0.0.1'] })).certPem));
  return out;
}

const peculiarFacts = (der: Uint8Array) => svidLeafFacts(new x509.X509Certificate(der));

test('P10 the fast read gives the same facts as @peculiar/x509 for every leaf shape the kit makes', async () => {
  for (const [name, der] of await leaves()) {
    const fast = svidLeafFactsOfDer(der);
    assert.ok(fast, `${name}: read fast`);
    assert.deepEqual(fast, peculiarFacts(der), name);
  }
});

test('P10 a key P10 does not allow is left to @peculiar/x509, which names it in the finding', async () => {
  for (const kind of ['RSA-2048', 'P-521'] as const) {
    const svid = await issueSvid(ca, ID, { publicKey: await unsupportedPublicKey(kind) });
    const der = new Uint8Array(derOfPem(svid.certPem));
    assert.equal(svidLeafFactsOfDer(der), undefined, kind);
    const findings = svidLeafFindings(peculiarFacts(der), { at: new Date() });
    assert.deepEqual(
      findings.map((f) => f.rule),
      ['svid-key-algorithm'],
      kind,
    );
  }
});

// The leaves are minted afresh (new keys) on every run, so a seed replays the damage, not the bytes: a failure prints
// the whole counterexample.
test('P10 a damaged leaf never throws from the fast read, and what it reads @peculiar/x509 reads the same', async () => {
  const all = [...(await leaves()).values()];
  const damaged = fc
    .record({ leaf: fc.constantFrom(...all), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.boolean() })
    .map(({ leaf, at, byte, cut }) => {
      const i = at % leaf.length;
      if (cut) return leaf.subarray(0, i);
      const copy = new Uint8Array(leaf);
      copy[i] = byte;
      return copy;
    });
  let compared = 0;
  fc.assert(
    fc.property(damaged, (der) => {
      const fast = svidLeafFactsOfDer(der);
      if (fast === undefined) return;
      let slow;
      try {
        slow = peculiarFacts(der);
      } catch {
        return; // @peculiar refuses bytes the rules never read (a name's string, the signature): the fast read may not
      }
      compared++;
      assert.deepEqual(fast, slow);
    }),
    fcOptions(400),
  );
  // A replayed path runs one case; a whole run must have compared many.
  if (!process.env.WFMCK_PATH) assert.ok(compared > 100, `compared ${compared} damaged leaves both reads accept`);
});
