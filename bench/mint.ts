// Device certificates minted before a benchmark's clock starts: one template leaf from protocol/pki.ts per common
// name length, then per device a fresh P-256 key, serial, CN and key identifier patched into the template's
// TBSCertificate and signed natively with the device CA's key (about 50x faster than building each one from scratch).
import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { issueCertificate, type Issued } from '../protocol/pki.ts';

export interface MintedCertificate {
  der: Buffer;
  privateKey: KeyObject;
}

interface Template {
  tbs: Buffer;
  /** The AlgorithmIdentifier that follows the TBSCertificate, copied as is. */
  signatureAlgorithm: Buffer;
  serial: number;
  serialLength: number;
  commonName: number;
  point: number;
  keyIdentifier: number;
}

/** Mints leaf certificates from `ca` (an EC P-256 CA, as the reference services' device CA is). */
export class CertificateMint {
  private readonly templates = new Map<number, Promise<Template>>();
  private readonly caKey: KeyObject;

  constructor(private readonly ca: Issued) {
    this.caKey = KeyObject.from(ca.keys.privateKey);
  }

  async mint(commonName: string): Promise<MintedCertificate> {
    const cn = Buffer.from(commonName, 'utf8');
    let template = this.templates.get(cn.length);
    if (!template) this.templates.set(cn.length, (template = this.template(commonName)));
    const t = await template;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const point = publicKey.export({ type: 'spki', format: 'der' }).subarray(-65);
    const tbs = Buffer.from(t.tbs);
    const serial = randomBytes(t.serialLength);
    // A positive INTEGER of unchanged length: top bit clear, first byte never zero.
    serial[0] = serial[0]! & 0x7f || 1;
    serial.copy(tbs, t.serial);
    cn.copy(tbs, t.commonName);
    point.copy(tbs, t.point);
    createHash('sha1').update(point).digest().copy(tbs, t.keyIdentifier);
    const signature = sign('sha256', tbs, { key: this.caKey, dsaEncoding: 'der' });
    const bitString = tlv(0x03, Buffer.concat([Buffer.from([0]), signature]));
    return { der: tlv(0x30, Buffer.concat([tbs, t.signatureAlgorithm, bitString])), privateKey };
  }

  private async template(commonName: string): Promise<Template> {
    const leaf = await issueCertificate(this.ca, { commonName, usage: ['client'] });
    const der = Buffer.from(leaf.cert.rawData);
    const outer = readTlv(der, 0);
    const tbsTlv = readTlv(der, outer.contentStart);
    const algTlv = readTlv(der, tbsTlv.end);
    const tbs = der.subarray(tbsTlv.start, tbsTlv.end);
    const spki = KeyObject.from(leaf.keys.publicKey).export({ type: 'spki', format: 'der' });
    const point = spki.subarray(-65);
    // TBSCertificate: [0] version, then the serial number INTEGER.
    const version = readTlv(der, tbsTlv.contentStart);
    const serial = readTlv(der, version.end);
    return {
      tbs: Buffer.from(tbs),
      signatureAlgorithm: Buffer.from(der.subarray(algTlv.start, algTlv.end)),
      serial: serial.contentStart - tbsTlv.start,
      serialLength: serial.end - serial.contentStart,
      commonName: commonNameOffset(tbs, Buffer.from(commonName, 'utf8')),
      point: uniqueOffset(tbs, point, 'public key'),
      // RFC 5280 §4.2.1.2 method 1, as @peculiar/x509 computes it: SHA-1 of the subjectPublicKey bits.
      keyIdentifier: uniqueOffset(tbs, createHash('sha1').update(point).digest(), 'subject key identifier'),
    };
  }
}

/** The subject's CN value: the one id-at-commonName (2.5.4.3) attribute whose string equals `cn` (the issuer's differs). */
function commonNameOffset(tbs: Buffer, cn: Buffer): number {
  const oid = Buffer.from([0x06, 0x03, 0x55, 0x04, 0x03]);
  const found: number[] = [];
  for (let at = tbs.indexOf(oid); at >= 0; at = tbs.indexOf(oid, at + 1)) {
    const value = readTlv(tbs, at + oid.length);
    if (tbs.subarray(value.contentStart, value.end).equals(cn)) found.push(value.contentStart);
  }
  if (found.length !== 1) throw new Error('certificate template: the common name does not occur exactly once');
  return found[0]!;
}

function uniqueOffset(haystack: Buffer, needle: Buffer, what: string): number {
  const at = haystack.indexOf(needle);
  if (at < 0 || haystack.indexOf(needle, at + 1) >= 0) throw new Error(`certificate template: the ${what} does not occur exactly once`);
  return at;
}

interface Tlv {
  start: number;
  contentStart: number;
  end: number;
}

/** One DER tag-length-value at `at` (definite lengths only, as DER requires). */
export function readTlv(der: Buffer, at: number): Tlv {
  const first = der[at + 1]!;
  if (first < 0x80) return { start: at, contentStart: at + 2, end: at + 2 + first };
  const octets = first & 0x7f;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + der[at + 2 + i]!;
  return { start: at, contentStart: at + 2 + octets, end: at + 2 + octets + length };
}

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}
