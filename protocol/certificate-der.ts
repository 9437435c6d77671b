// An onboarding certificate's parts read straight from DER. OpenSSL 3.0 (Node 20) decodes a certificate's public key
// through its provider decoders: `new X509Certificate` costs ~185 µs for a small P-256 leaf, more than a signature
// check. This reader knows one shape only, the one fleets present: v3, signed with ECDSA-SHA256, a P-256 key, RFC 5280
// times, names of printable text and the common extensions, each once and in its plain form. For anything else it
// answers undefined and the caller reads the certificate with OpenSSL as before.
import { asciiOf, childrenOf, expectTag, oidOf, readOrUndefined, readTlv, timeOf, UnusualShape, type Tlv } from '../spec/der.ts';

export interface CertificateParts {
  /** tbsCertificate, tag and length included: the bytes the issuer signed. */
  tbs: Uint8Array;
  /** The outer signatureAlgorithm's OID (the same bytes as tbsCertificate's `signature`). */
  signatureAlgorithm: string;
  /** The signature BIT STRING's bits (an ECDSA-Sig-Value for ECDSA). */
  signature: Uint8Array;
  /** The issuer Name, tag and length included, as it is compared byte for byte. */
  issuer: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** An EC P-256 key's uncompressed point (65 bytes), if the key is one. */
  p256Point?: Uint8Array;
  /** authorityKeyIdentifier's keyIdentifier, when present. */
  authorityKeyId?: Uint8Array;
}

export const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const P256 = '1.2.840.10045.3.1.7';
const EXTENSION = {
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
} as const;
/** Name attribute values read: UTF8String, PrintableString, IA5String, all of printable ASCII here. */
const NAME_STRINGS = new Set([0x0c, 0x13, 0x16]);
/** GeneralNames read: rfc822Name, dNSName, uniformResourceIdentifier (printable ASCII), iPAddress (4 or 16 bytes). */
const TEXT_NAMES = new Set([0x81, 0x82, 0x86]);
const IP_ADDRESS = 0x87;

/** The parts of a certificate in the one shape this reader knows, or undefined: then let OpenSSL read it. */
export function certificatePartsOfDer(der: Uint8Array): CertificateParts | undefined {
  return readOrUndefined(read, der);
}

function read(der: Uint8Array): CertificateParts {
  const certificate = expectTag(readTlv(der, 0), 0x30, 'the certificate');
  if (certificate.end !== der.length) throw new UnusualShape('bytes after the certificate');
  const [tbsEl, algorithmEl, signatureEl, ...rest] = childrenOf(der, certificate);
  if (rest.length) throw new UnusualShape('certificate parts');
  const tbsTlv = expectTag(tbsEl, 0x30, 'tbsCertificate');
  const [version, serial, signature, issuer, validity, subject, spki, extensions, ...more] = childrenOf(der, tbsTlv);
  if (more.length || extensions?.tag !== 0xa3) throw new UnusualShape('tbsCertificate parts');
  if (!bytesEqual(whole(der, expectTag(version, 0xa0, 'version')), V3)) throw new UnusualShape('version');
  checkSerial(der, expectTag(serial, 0x02, 'serialNumber'));
  const algorithm = whole(der, expectTag(algorithmEl, 0x30, 'signatureAlgorithm'));
  if (!bytesEqual(algorithm, whole(der, expectTag(signature, 0x30, 'signature')))) throw new UnusualShape('two signature algorithms');
  const bitString = expectTag(signatureEl, 0x03, 'signatureValue');
  if (bitString.end === bitString.start || der[bitString.start] !== 0) throw new UnusualShape('signature bits');
  checkName(der, expectTag(issuer, 0x30, 'issuer'));
  checkName(der, expectTag(subject, 0x30, 'subject'));
  const times = childrenOf(der, expectTag(validity, 0x30, 'validity'));
  if (times.length !== 2) throw new UnusualShape('validity');

  const parts: CertificateParts = {
    tbs: whole(der, tbsTlv),
    signatureAlgorithm: algorithmOid(der, algorithmEl!),
    signature: der.subarray(bitString.start + 1, bitString.end),
    issuer: whole(der, issuer!),
    notBefore: timeOf(der, times[0]!),
    notAfter: timeOf(der, times[1]!),
  };
  const point = p256Point(der, expectTag(spki, 0x30, 'subjectPublicKeyInfo'));
  if (point) parts.p256Point = point;
  readExtensions(der, extensions, parts);
  return parts;
}

const V3 = Uint8Array.of(0xa0, 0x03, 0x02, 0x01, 0x02);

function whole(der: Uint8Array, el: Tlv): Uint8Array {
  return der.subarray(el.at, el.end);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** A positive or negative INTEGER of 1-20 bytes, minimally encoded (OpenSSL refuses padding). */
function checkSerial(der: Uint8Array, el: Tlv): void {
  const n = el.end - el.start;
  if (n < 1 || n > 20) throw new UnusualShape('serial length');
  const [a, b] = [der[el.start]!, der[el.start + 1]];
  if (n > 1 && ((a === 0 && !(b! & 0x80)) || (a === 0xff && b! & 0x80))) throw new UnusualShape('serial padding');
}

/** A Name of non-empty SETs of {OID, printable text}. */
function checkName(der: Uint8Array, name: Tlv): void {
  for (const rdn of childrenOf(der, name)) {
    const attributes = childrenOf(der, expectTag(rdn, 0x31, 'a relative distinguished name'));
    if (attributes.length === 0) throw new UnusualShape('an empty RDN');
    for (const attribute of attributes) {
      const [type, value, ...extra] = childrenOf(der, expectTag(attribute, 0x30, 'an attribute'));
      if (extra.length || !value || !NAME_STRINGS.has(value.tag)) throw new UnusualShape('an attribute value');
      oidOf(der, type!);
      asciiOf(der, value);
    }
  }
}

/** An AlgorithmIdentifier of one OID and no parameters, as ECDSA's are. */
function algorithmOid(der: Uint8Array, el: Tlv): string {
  const [id, ...params] = childrenOf(der, el);
  if (params.length) throw new UnusualShape('algorithm parameters');
  return oidOf(der, id!);
}

function p256Point(der: Uint8Array, spki: Tlv): Uint8Array | undefined {
  const [algorithm, key, ...extra] = childrenOf(der, spki);
  if (extra.length) throw new UnusualShape('subjectPublicKeyInfo parts');
  const [id, curve, ...more] = childrenOf(der, expectTag(algorithm, 0x30, 'the key algorithm'));
  const bits = expectTag(key, 0x03, 'subjectPublicKey');
  if (more.length || oidOf(der, id!) !== EC_PUBLIC_KEY || curve?.tag !== 0x06 || oidOf(der, curve) !== P256) return undefined;
  if (bits.end - bits.start !== 66 || der[bits.start] !== 0 || der[bits.start + 1] !== 0x04) throw new UnusualShape('a P-256 point');
  return der.subarray(bits.start + 1, bits.end);
}

function readExtensions(der: Uint8Array, wrapper: Tlv, parts: CertificateParts): void {
  const [list, ...extra] = childrenOf(der, wrapper);
  if (extra.length) throw new UnusualShape('extensions wrapper');
  const seen = new Set<string>();
  const all = childrenOf(der, expectTag(list, 0x30, 'extensions'));
  if (all.length === 0) throw new UnusualShape('no extensions');
  for (const ext of all) {
    const fields = childrenOf(der, expectTag(ext, 0x30, 'an extension'));
    if (fields.length === 3) {
      const critical = expectTag(fields[1], 0x01, 'critical');
      if (critical.end - critical.start !== 1 || der[critical.start] !== 0xff) throw new UnusualShape('critical');
    } else if (fields.length !== 2) throw new UnusualShape('extension parts');
    const id = oidOf(der, fields[0]!);
    if (seen.has(id)) throw new UnusualShape('a repeated extension');
    seen.add(id);
    const octets = expectTag(fields[fields.length - 1], 0x04, 'extnValue');
    const value = readTlv(der, octets.start, octets.end);
    if (value.end !== octets.end) throw new UnusualShape('bytes after an extension value');
    if (id === EXTENSION.basicConstraints) {
      // A leaf's: no cA, no pathLenConstraint (OpenSSL marks a pathLen without cA invalid).
      if (expectTag(value, 0x30, 'BasicConstraints').end !== value.start) throw new UnusualShape('BasicConstraints');
    } else if (id === EXTENSION.keyUsage) checkKeyUsage(der, expectTag(value, 0x03, 'KeyUsage'));
    else if (id === EXTENSION.extKeyUsage) {
      const purposes = childrenOf(der, expectTag(value, 0x30, 'ExtKeyUsage'));
      if (purposes.length === 0) throw new UnusualShape('empty ExtKeyUsage');
      for (const p of purposes) oidOf(der, p);
    } else if (id === EXTENSION.subjectKeyIdentifier) contents(der, expectTag(value, 0x04, 'SKI'));
    else if (id === EXTENSION.authorityKeyIdentifier) {
      const [keyId, ...others] = childrenOf(der, expectTag(value, 0x30, 'AKI'));
      if (others.length || keyId?.tag !== 0x80) throw new UnusualShape('AKI other than a keyIdentifier');
      parts.authorityKeyId = contents(der, keyId);
    } else if (id === EXTENSION.subjectAltName) checkGeneralNames(der, expectTag(value, 0x30, 'GeneralNames'));
    else throw new UnusualShape(`extension ${id}`);
  }
}

function contents(der: Uint8Array, el: Tlv): Uint8Array {
  if (el.end === el.start) throw new UnusualShape('an empty identifier');
  return der.subarray(el.start, el.end);
}

/** A BIT STRING of one or two bytes whose padding bits are zero (DER). */
function checkKeyUsage(der: Uint8Array, bits: Tlv): void {
  const n = bits.end - bits.start;
  if (n < 2 || n > 3) throw new UnusualShape('KeyUsage length');
  const unused = der[bits.start]!;
  if (unused > 7 || der[bits.end - 1]! & ((1 << unused) - 1)) throw new UnusualShape('KeyUsage padding');
}

function checkGeneralNames(der: Uint8Array, names: Tlv): void {
  const all = childrenOf(der, names);
  if (all.length === 0) throw new UnusualShape('empty GeneralNames');
  for (const name of all) {
    if (TEXT_NAMES.has(name.tag)) asciiOf(der, name);
    else if (name.tag !== IP_ADDRESS || (name.end - name.start !== 4 && name.end - name.start !== 16))
      throw new UnusualShape('a GeneralName');
  }
}

/** What an issuer check needs of a CA OpenSSL has already read: its subject Name and subjectKeyIdentifier. */
export function issuerNamesOfDer(der: Uint8Array): IssuerNames | undefined {
  return readOrUndefined(readIssuerNames, der);
}

interface IssuerNames {
  subject: Uint8Array;
  subjectKeyId?: Uint8Array;
}

function readIssuerNames(der: Uint8Array): IssuerNames {
  const tbs = childrenOf(der, expectTag(childrenOf(der, expectTag(readTlv(der, 0), 0x30, 'the certificate'))[0], 0x30, 'tbs'));
  const first = tbs[0]?.tag === 0xa0 ? 1 : 0;
  const out: IssuerNames = { subject: whole(der, expectTag(tbs[first + 4], 0x30, 'subject')) };
  const wrapper = tbs.find((el) => el.tag === 0xa3);
  for (const ext of wrapper ? childrenOf(der, expectTag(childrenOf(der, wrapper)[0], 0x30, 'extensions')) : []) {
    const fields = childrenOf(der, expectTag(ext, 0x30, 'an extension'));
    if (oidOf(der, fields[0]!) !== EXTENSION.subjectKeyIdentifier) continue;
    const octets = expectTag(fields[fields.length - 1], 0x04, 'extnValue');
    out.subjectKeyId = contents(der, expectTag(readTlv(der, octets.start, octets.end), 0x04, 'SKI'));
  }
  return out;
}
