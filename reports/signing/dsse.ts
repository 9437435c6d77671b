// DSSE (Dead Simple Signing Envelope, github.com/secure-systems-lab/dsse): the envelope of in-toto attestations, so
// cosign and in-toto verify what `wfmck run --sign` writes. Signatures are ECDSA P-256 over SHA-256 of the PAE, in
// ASN.1 DER (the encoding DSSE and in-toto tools use for ECDSA).
import { createHash, sign, verify, type KeyObject } from 'node:crypto';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface Envelope {
  payloadType: string;
  /** Standard base64 of the payload bytes. */
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

/** Pre-Authentication Encoding: what is signed, so the payload type is bound to the payload. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

/** A key's id: hex SHA-256 of its SubjectPublicKeyInfo DER, so a reader can tell which key signed. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function signEnvelope(payloadType: string, payload: Buffer, privateKey: KeyObject, keyid: string): Envelope {
  const sig = sign('sha256', pae(payloadType, payload), { key: privateKey, dsaEncoding: 'der' });
  return { payloadType, payload: payload.toString('base64'), signatures: [{ keyid, sig: sig.toString('base64') }] };
}

/** True when any signature of the envelope verifies with the key (a wrong or garbled signature is simply false). */
export function envelopeVerifies(envelope: Envelope, publicKey: KeyObject): boolean {
  const message = pae(envelope.payloadType, Buffer.from(envelope.payload, 'base64'));
  return envelope.signatures.some((s) => {
    try {
      return verify('sha256', message, { key: publicKey, dsaEncoding: 'der' }, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
}

/** The envelope's shape checked field by field (it is input from a file anyone may have edited); undefined if not one. */
export function parseEnvelope(raw: unknown): Envelope | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  if (typeof o.payloadType !== 'string' || typeof o.payload !== 'string' || !Array.isArray(o.signatures)) return undefined;
  const signatures = o.signatures
    .filter((s): s is { keyid?: unknown; sig: string } => typeof s?.sig === 'string')
    .map((s) => ({ keyid: typeof s.keyid === 'string' ? s.keyid : '', sig: s.sig }));
  if (signatures.length === 0) return undefined;
  return { payloadType: o.payloadType, payload: o.payload, signatures };
}
