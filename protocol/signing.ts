// RFC 9421 request signatures as profiles.md P3 reads them: label sig1, created + keyid, fixed covered components.
// Native: the signature base is built here (protocol/signature-base.ts) and signed and verified with node:crypto
// KeyObjects, no key import per request (a fleet signs every request; the reference WFM verifies each), in the turn's
// crypto batch (protocol/crypto-batch.ts): back to back, the curve's tables stay in cache.
import { KeyObject, constants, sign as nativeSign, verify as nativeVerify, webcrypto } from 'node:crypto';
import type { SignatureAlgorithm } from '../spec/profile.ts';
import { inCryptoBatch } from './crypto-batch.ts';
import { contentDigest } from './content-digest.ts';
import { SIGNATURE_LABEL, isSignatureFieldsFailure, readSignatureFields, type SignatureMember } from './signature-fields.ts';
import { signatureBase } from './signature-base.ts';

export type { SignatureAlgorithm } from '../spec/profile.ts';
/** Signatures older than this are refused: a captured request cannot be replayed for long. */
export const DEFAULT_MAX_AGE_SECONDS = 300;
/** Clock skew tolerated for a `created` in the future. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

export interface SignRequestInput {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  privateKey: KeyObject | webcrypto.CryptoKey;
  keyId: string;
  algorithm?: SignatureAlgorithm;
  /** Seconds since the epoch; default now. */
  created?: number;
  /** A departure from P3 (the kit's faulty client only): no Content-Digest for the body, or @target-uri not covered. */
  omit?: 'content-digest' | 'target-uri';
}

/**
 * The headers to add to the request: `content-digest` (when a body is sent), `signature-input`, `signature`. The
 * native sign runs in this turn's crypto batch (crypto-batch.ts): a fleet signs many requests per turn.
 */
export async function signRequest(input: SignRequestInput): Promise<Record<string, string>> {
  const p = prepareSignature(input);
  return withSignature(p.added, await inCryptoBatch(() => signBytes(p.base, p.key, p.algorithm)));
}

/** signRequest without the promise or the batch: the work a batch does per request (the bench's kit-sign figure). */
export function signRequestSync(input: SignRequestInput): Record<string, string> {
  const p = prepareSignature(input);
  return withSignature(p.added, signBytes(p.base, p.key, p.algorithm));
}

interface PreparedSignature {
  /** The headers to add, all but `signature`. */
  added: Record<string, string>;
  base: Buffer;
  key: KeyObject;
  algorithm: SignatureAlgorithm;
}

function prepareSignature(input: SignRequestInput): PreparedSignature {
  const algorithm = input.algorithm ?? 'ecdsa-p256-sha256';
  const headers = lowercase(input.headers);
  delete headers['signature'];
  delete headers['signature-input'];
  const added: Record<string, string> = {};
  const fields = input.omit === 'target-uri' ? ['@method'] : ['@method', '@target-uri'];
  if (input.body !== undefined) {
    if (input.omit !== 'content-digest') {
      added['content-digest'] = contentDigest(input.body);
      headers['content-digest'] = added['content-digest'];
      fields.push('content-digest');
    }
    // P3 covers content-type with the body; a body sent without one cannot cover it.
    if (headers['content-type'] !== undefined) fields.push('content-type');
  }
  const created = input.created ?? Math.floor(Date.now() / 1000);
  const params = `(${fields.map((f) => `"${f}"`).join(' ')});created=${created};keyid=${sfString(input.keyId)}`;
  const base = signatureBase(fields, params, { method: input.method, url: input.url, headers });
  if (base === undefined) throw new Error('P3 signature base cannot be built');
  added['signature-input'] = `${SIGNATURE_LABEL}=${params}`;
  return { added, base: Buffer.from(base), key: toKeyObject(input.privateKey), algorithm };
}

function withSignature(added: Record<string, string>, signature: Buffer): Record<string, string> {
  added['signature'] = `${SIGNATURE_LABEL}=:${signature.toString('base64')}:`;
  return added;
}

/** RFC 9421 §3.3: ECDSA as raw r||s (IEEE P1363), RSA-PSS with a 64-byte salt, Ed25519 as is. */
function signBytes(data: Buffer, key: KeyObject, algorithm: SignatureAlgorithm): Buffer {
  if (algorithm === 'ecdsa-p256-sha256') return nativeSign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  if (algorithm === 'rsa-pss-sha512') return nativeSign('sha512', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 });
  return nativeSign(null, data, key);
}

/**
 * Synchronous on purpose, run in the turn's batch. The callback form (libuv's threadpool) frees the event loop only
 * while a core is idle: on a busy machine the woken worker preempts the loop's own core, and a 20,000-device fleet
 * onboarded ~10% slower.
 */
function verifyBytes(data: Buffer, key: KeyObject, algorithm: string, signature: Buffer): boolean {
  if (algorithm === 'ecdsa-p256-sha256') return nativeVerify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (algorithm === 'rsa-pss-sha512')
    return nativeVerify('sha512', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 }, signature);
  if (algorithm === 'ed25519') return nativeVerify(null, data, key, signature);
  throw new Error(`unsupported algorithm ${algorithm}`);
}

/** A structured-field string (RFC 8941 §3.3.3): quoted, with \\ and " escaped. */
function sfString(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** WebCrypto keys become KeyObjects once, not per request. */
const keyObjects = new WeakMap<webcrypto.CryptoKey, KeyObject>();

function toKeyObject(key: KeyObject | webcrypto.CryptoKey): KeyObject {
  if (key instanceof KeyObject) return key;
  let object = keyObjects.get(key);
  if (!object) keyObjects.set(key, (object = KeyObject.from(key)));
  return object;
}

/** The P3 algorithm that goes with a public key (EC P-256, RSA, Ed25519), or undefined for any other key. */
export function algorithmForKey(publicKey: KeyObject): SignatureAlgorithm | undefined {
  const type = publicKey.asymmetricKeyType;
  if (type === 'ec') return publicKey.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? 'ecdsa-p256-sha256' : undefined;
  if (type === 'rsa' || type === 'rsa-pss') return 'rsa-pss-sha512';
  if (type === 'ed25519') return 'ed25519';
  return undefined;
}

export type VerifyFailure = 'missing' | 'unknown-key' | 'bad-signature' | 'malformed' | 'missing-components';
export type VerifyResult = { ok: true; keyId: string } | { ok: false; reason: VerifyFailure; detail: string };

export interface VerifySignatureInput {
  method: string;
  /** The absolute target URI as the server reconstructs it (scheme it serves on + Host + request target). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  lookupKey(keyId: string): Promise<{ publicKey: KeyObject; algorithm: string } | undefined>;
  /** Whether the request carries a body; default: it has a content-digest or a non-zero length. */
  hasBody?: boolean;
  maxAgeSeconds?: number;
  /** Seconds since the epoch; default now. */
  now?: number;
  /** The components the application requires covered (RFC 9421 §3.2.1); default P3's (p3CoveredComponents). */
  required?: readonly string[];
}

/** P3: the components a signature must cover; content-digest only when the request has a body. */
export function p3CoveredComponents(hasBody: boolean): readonly string[] {
  return hasBody ? ['@method', '@target-uri', 'content-digest'] : ['@method', '@target-uri'];
}

/**
 * Verifies the P3 signature (label `sig1`, else the first one present) and refuses a signature that does not
 * cover `@method`, `@target-uri`, and `content-digest` when there is a body (or what `required` names).
 */
export async function verifySignature(input: VerifySignatureInput): Promise<VerifyResult> {
  const headers = flatten(input.headers);
  const member = readSignatureFields(headers['signature-input'], headers['signature']);
  if (isSignatureFieldsFailure(member)) return fail(member.reason, member.detail);
  const { params } = member;
  const keyId = params.get('keyid');
  const created = params.get('created');
  if (typeof keyId !== 'string') return fail('malformed', 'keyid parameter missing');
  if (typeof created !== 'number' || !Number.isInteger(created)) return fail('malformed', 'created parameter missing');

  const hasBody = input.hasBody ?? (headers['content-digest'] !== undefined || Number(headers['content-length'] ?? 0) > 0);
  const required = input.required ?? p3CoveredComponents(hasBody);
  const missing = required.filter((c) => !member.plainComponents.includes(c));
  if (missing.length) return fail('missing-components', `signature does not cover ${missing.join(', ')}`);

  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (created > now + DEFAULT_CLOCK_SKEW_SECONDS) return fail('bad-signature', 'created lies in the future');
  if (now - created > (input.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS)) return fail('bad-signature', 'signature too old');
  const expires = params.get('expires');
  if (typeof expires === 'number' && expires < now) return fail('bad-signature', 'signature expired');

  const key = await input.lookupKey(keyId);
  if (!key) return fail('unknown-key', `unknown keyid ${keyId}`);
  const alg = params.get('alg');
  if (alg !== undefined && alg !== key.algorithm) return fail('bad-signature', `alg ${String(alg)} does not match the key`);
  return checkSignature(input, headers, member, keyId, key);
}

function checkSignature(
  input: VerifySignatureInput,
  headers: Record<string, string>,
  member: SignatureMember,
  keyId: string,
  key: { publicKey: KeyObject; algorithm: string },
): VerifyResult | Promise<VerifyResult> {
  // The base's last line is the parameters as the signer serialized them (RFC 9421 §2.3, RFC 8941 §4.1).
  const base =
    member.plainComponents.length < member.components.length
      ? undefined
      : signatureBase(member.components, member.serializedParams, { method: input.method, url: input.url, headers });
  if (base === undefined)
    return fail('bad-signature', 'signature base cannot be built: a covered component is absent or has parameters the kit does not derive');
  const data = Buffer.from(base);
  return inCryptoBatch(() => verifyBytes(data, key.publicKey, key.algorithm, member.signature)).then(
    (valid): VerifyResult => (valid ? { ok: true, keyId } : fail('bad-signature', 'signature does not verify')),
    (e: unknown) => fail('bad-signature', (e as Error).message),
  );
}

function fail(reason: VerifyFailure, detail: string): VerifyResult {
  return { ok: false, reason, detail };
}

function lowercase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
