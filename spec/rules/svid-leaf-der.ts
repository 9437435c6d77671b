// P10 leaf facts read straight from DER: what a WFM judges on every mutual-TLS handshake. @peculiar/x509 reads a
// leaf in ~2 ms (asn1js's schema machinery), more than the handshake itself; this reads the few fields the rules need
// in microseconds. It knows only the common shapes: for anything else (another key, an unusual SAN or time, a
// malformed extension) it answers undefined, and the caller reads the certificate with svidLeafFacts instead, so the
// verdict is the same either way (test/spec/rules/svid-leaf-der.test.ts compares the two).
import { asciiOf, childrenOf, expectTag, oidOf, readOrUndefined, readTlv, timeOf, UnusualShape, type Tlv } from '../der.ts';
import type { SvidKeyAlgorithm, SvidLeafFacts } from './svid-leaf.ts';

const EXTENSION = { basicConstraints: '2.5.29.19', keyUsage: '2.5.29.15', subjectAltName: '2.5.29.17' } as const;
const EC_CURVES: Record<string, SvidKeyAlgorithm> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384' };
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const ED25519 = '1.3.101.112';
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
/** GeneralName tags read (dNSName, uniformResourceIdentifier) or known and skipped (rfc822Name, iPAddress). */
const DNS_NAME = 0x82;
const URI = 0x86;
const SKIPPED_NAMES = new Set([0x81, 0x87]);

/** The facts of a leaf in a common shape, or undefined: then read it with svidLeafFacts. */
export function svidLeafFactsOfDer(der: Uint8Array): SvidLeafFacts | undefined {
  return readOrUndefined(read, der);
}

function read(der: Uint8Array): SvidLeafFacts {
  const certificate = expectTag(readTlv(der, 0), 0x30, 'the certificate');
  const tbs = childrenOf(der, expectTag(childrenOf(der, certificate)[0], 0x30, 'tbsCertificate'));
  let i = tbs[0]?.tag === 0xa0 ? 1 : 0; // [0] version
  i += 3; // serialNumber, signature, issuer
  const validity = childrenOf(der, expectTag(tbs[i++], 0x30, 'validity'));
  i++; // subject
  const key = keyOf(der, expectTag(tbs[i++], 0x30, 'subjectPublicKeyInfo'));
  const extensions = tbs.find((el) => el.tag === 0xa3);
  if (validity.length !== 2) throw new UnusualShape('validity');

  const facts: SvidLeafFacts = {
    basicConstraintsCa: false,
    keyUsages: 0,
    uris: [],
    dnsNames: [],
    notBefore: timeOf(der, validity[0]!),
    notAfter: timeOf(der, validity[1]!),
    key,
  };
  const seen = new Set<string>();
  for (const ext of extensions ? childrenOf(der, expectTag(childrenOf(der, extensions)[0], 0x30, 'extensions')) : []) {
    const parts = childrenOf(der, expectTag(ext, 0x30, 'an extension'));
    if (parts.length === 3) expectTag(parts[1], 0x01, 'critical');
    else if (parts.length !== 2) throw new UnusualShape('an extension of neither 2 nor 3 parts');
    const id = oidOf(der, parts[0]!);
    const value = expectTag(parts[parts.length - 1], 0x04, 'extnValue');
    // The first of a repeated extension counts, as @peculiar/x509's getExtension reads it.
    if (seen.has(id)) continue;
    seen.add(id);
    if (id === EXTENSION.basicConstraints) facts.basicConstraintsCa = basicConstraintsCa(der, value);
    else if (id === EXTENSION.keyUsage) facts.keyUsages = keyUsages(der, value);
    else if (id === EXTENSION.subjectAltName) readNames(der, value, facts);
  }
  return facts;
}

function keyOf(der: Uint8Array, spki: Tlv): SvidLeafFacts['key'] {
  const [algorithm, publicKey] = childrenOf(der, spki);
  const [id, params] = childrenOf(der, expectTag(algorithm, 0x30, 'the key algorithm'));
  const oid = oidOf(der, id!);
  if (oid === ED25519) return { known: 'Ed25519' };
  if (oid === EC_PUBLIC_KEY && params?.tag === 0x06) {
    const curve = EC_CURVES[oidOf(der, params)];
    if (curve) return { known: curve };
  }
  if (oid === RSA_ENCRYPTION && rsaModulusBits(der, expectTag(publicKey, 0x03, 'the public key')) >= 3072) return { known: 'RSA-3072' };
  // A key P10 does not allow is described as @peculiar/x509 names it.
  throw new UnusualShape('key');
}

function rsaModulusBits(der: Uint8Array, bitString: Tlv): number {
  const rsaKey = readTlv(der, bitString.start + 1, bitString.end);
  const modulus = expectTag(childrenOf(der, expectTag(rsaKey, 0x30, 'RSAPublicKey'))[0], 0x02, 'the modulus');
  let at = modulus.start;
  while (at < modulus.end && der[at] === 0) at++;
  if (at === modulus.end) return 0;
  return (modulus.end - at - 1) * 8 + (32 - Math.clz32(der[at]!));
}

function basicConstraintsCa(der: Uint8Array, value: Tlv): boolean {
  const constraints = expectTag(readTlv(der, value.start, value.end), 0x30, 'BasicConstraints');
  const first = childrenOf(der, constraints)[0];
  if (first?.tag !== 0x01) return false;
  if (first.end - first.start !== 1) throw new UnusualShape('boolean');
  return der[first.start] !== 0;
}

/** KeyUsage's named bits, bit 0 (digitalSignature) first, as x509.KeyUsageFlags numbers them (1 << bit). */
function keyUsages(der: Uint8Array, value: Tlv): number {
  const bits = expectTag(readTlv(der, value.start, value.end), 0x03, 'KeyUsage');
  if (bits.end - bits.start < 1 || bits.end - bits.start > 3) throw new UnusualShape('KeyUsage length');
  const unused = der[bits.start]!;
  if (unused > 7) throw new UnusualShape('KeyUsage unused bits');
  let flags = 0;
  for (let byte = bits.start + 1, bit = 0; byte < bits.end; byte++) {
    // The last byte's `unused` low bits are padding, whatever they hold.
    const last = byte === bits.end - 1 ? 0xff & (0xff << unused) : 0xff;
    for (let mask = 0x80; mask > 0; mask >>= 1, bit++) if (der[byte]! & last & mask) flags |= 1 << bit;
  }
  return flags;
}

function readNames(der: Uint8Array, value: Tlv, facts: SvidLeafFacts): void {
  const names = expectTag(readTlv(der, value.start, value.end), 0x30, 'GeneralNames');
  for (const name of childrenOf(der, names)) {
    if (name.tag === URI || name.tag === DNS_NAME) (name.tag === URI ? facts.uris : facts.dnsNames).push(asciiOf(der, name));
    else if (!SKIPPED_NAMES.has(name.tag)) throw new UnusualShape(`GeneralName tag 0x${name.tag.toString(16)}`);
  }
}
