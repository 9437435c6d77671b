// P10 hook issueClientSvid: the identity role mints a client X.509-SVID on the key of a PKCS#10 request.
import { identityOf } from '../../spec/spiffe-id.ts';
import { x509 } from '../../spec/x509.ts';
import { issueCertificate, type Issued } from '../../protocol/pki.ts';

const SVID_DAYS = 30;

/** The leaf's PEM (the anchor is in the bundle, so the chain is the leaf alone). Throws with the reason on bad input. */
export async function issueFromCsr(anchor: Issued, trustDomain: string, input: { spiffeId?: unknown; csrPem?: unknown }): Promise<string> {
  const spiffeId = input?.spiffeId;
  if (typeof spiffeId !== 'string') throw new Error('issueClientSvid: spiffeId is required');
  const who = identityOf(spiffeId);
  if (who?.role !== 'client' || who.trustDomain !== trustDomain) {
    throw new Error(
      `issueClientSvid: ${spiffeId} is not a client SPIFFE ID of trust domain ${trustDomain} (spiffe://${trustDomain}/<vendor>/wfm/<wfm-id>/client/<client-id>)`,
    );
  }
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(String(input.csrPem ?? ''));
  } catch (e) {
    throw new Error(`issueClientSvid: csrPem is not a PKCS#10 request: ${(e as Error).message}`);
  }
  if (!(await csr.verify())) throw new Error('issueClientSvid: the CSR signature does not verify (proof of possession)');
  const publicKey = await csr.publicKey.export();
  const leaf = await issueCertificate(anchor, {
    commonName: who.clientId,
    uris: [spiffeId],
    usage: ['client'],
    publicKey,
    notAfter: new Date(Date.now() + SVID_DAYS * 86_400_000),
  });
  return leaf.certPem;
}
