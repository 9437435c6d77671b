// RFC 9421 request signatures as profiles.md P3 reads them: label sig1, created + keyid, fixed covered components.
import { KeyObject, constants, createSign, webcrypto } from 'node:crypto';
import { createSigner, createVerifier, httpbis, type SigningKey } from 'http-message-signatures';
import { parseDictionary, serializeDictionary, type Dictionary, type InnerList, type Item } from 'structured-headers';
import type { SignatureAlgorithm } from '../spec/profile.ts';
import { contentDigest } from './content-digest.ts';

export type { SignatureAlgorithm } from '../spec/profile.ts';
export const SIGNATURE_LABEL = 'sig1';
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

/** The headers to add to the request: `content-digest` (when a body is sent), `signature-input`, `signature`. */
export async function signRequest(input: SignRequestInput): Promise<Record<string, string>> {
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
  const signed = await httpbis.signMessage(
    {
      key: signingKey(toKeyObject(input.privateKey), algorithm),
      name: SIGNATURE_LABEL,
      params: ['created', 'keyid'],
      fields,
      paramValues: { created: new Date((input.created ?? Math.floor(Date.now() / 1000)) * 1000), keyid: input.keyId },
    },
    { method: input.method.toUpperCase(), url: new URL(input.url).href, headers },
  );
  for (const [name, value] of Object.entries(signed.headers)) {
    const lc = name.toLowerCase();
    if (lc === 'signature' || lc === 'signature-input') added[lc] = String(value);
  }
  return added;
}

function signingKey(key: KeyObject, algorithm: SignatureAlgorithm): SigningKey {
  if (algorithm !== 'rsa-pss-sha512') return createSigner(key, algorithm);
  // RFC 9421 §3.3.1 fixes the PSS salt at 64 bytes; the library's signer would use the maximum.
  return {
    alg: algorithm,
    sign: async (data) =>
      createSign('sha512').update(data).sign({ key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 }),
  };
}

function toKeyObject(key: KeyObject | webcrypto.CryptoKey): KeyObject {
  return key instanceof KeyObject ? key : KeyObject.from(key);
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
}

/**
 * Verifies the P3 signature (label `sig1`, else the first one present) and refuses a signature that does not
 * cover `@method`, `@target-uri`, and `content-digest` when there is a body.
 */
export async function verifySignature(input: VerifySignatureInput): Promise<VerifyResult> {
  const headers = flatten(input.headers);
  const rawInput = headers['signature-input'];
  const rawSignature = headers['signature'];
  if (rawInput === undefined && rawSignature === undefined) return fail('missing', 'no Signature or Signature-Input header');
  if (rawInput === undefined || rawSignature === undefined) return fail('malformed', 'Signature and Signature-Input must both be sent');
  let inputs: Dictionary;
  let signatures: Dictionary;
  try {
    inputs = parseDictionary(rawInput);
    signatures = parseDictionary(rawSignature);
  } catch {
    return fail('malformed', 'Signature or Signature-Input is not a structured-field dictionary');
  }
  const label = inputs.has(SIGNATURE_LABEL) ? SIGNATURE_LABEL : inputs.keys().next().value;
  if (label === undefined) return fail('missing', 'Signature-Input lists no signature');
  const entry = inputs.get(label)!;
  const signature = signatures.get(label);
  if (!isInnerList(entry)) return fail('malformed', `Signature-Input ${label} is not an inner list`);
  if (!signature || isInnerList(signature) || !(signature[0] instanceof ArrayBuffer)) {
    return fail('malformed', `no byte-sequence Signature for label ${label}`);
  }
  const [items, params] = entry;
  if (!items.every((i) => typeof i[0] === 'string')) return fail('malformed', 'covered components must be strings');
  const keyId = params.get('keyid');
  const created = params.get('created');
  if (typeof keyId !== 'string') return fail('malformed', 'keyid parameter missing');
  if (typeof created !== 'number' || !Number.isInteger(created)) return fail('malformed', 'created parameter missing');

  const hasBody = input.hasBody ?? (headers['content-digest'] !== undefined || Number(headers['content-length'] ?? 0) > 0);
  const required = ['@method', '@target-uri', ...(hasBody ? ['content-digest'] : [])];
  const covered = new Set(items.filter((i) => i[1].size === 0).map((i) => i[0] as string));
  const missing = required.filter((c) => !covered.has(c));
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
  return checkSignature(input, headers, label, entry, signature as Item, keyId, key);
}

async function checkSignature(
  input: VerifySignatureInput,
  headers: Record<string, string>,
  label: string,
  entry: InnerList,
  signature: Item,
  keyId: string,
  key: { publicKey: KeyObject; algorithm: string },
): Promise<VerifyResult> {
  let verify: ReturnType<typeof createVerifier>;
  try {
    verify = createVerifier(key.publicKey, key.algorithm);
  } catch {
    return fail('bad-signature', `unsupported algorithm ${key.algorithm}`);
  }
  // Hand the library only the chosen signature so its first-or-last semantics cannot pick another one.
  const only = {
    ...headers,
    'signature-input': serializeDictionary(new Map([[label, entry]])),
    signature: serializeDictionary(new Map([[label, signature]])),
  };
  try {
    const ok = await httpbis.verifyMessage(
      { keyLookup: async () => ({ id: keyId, algs: [key.algorithm], verify }), notAfter: Number.MAX_SAFE_INTEGER },
      { method: input.method.toUpperCase(), url: input.url, headers: only },
    );
    return ok ? { ok: true, keyId } : fail('bad-signature', 'signature does not verify');
  } catch (e) {
    return fail('bad-signature', `signature base cannot be built: ${(e as Error).message}`);
  }
}

function fail(reason: VerifyFailure, detail: string): VerifyResult {
  return { ok: false, reason, detail };
}

function isInnerList(member: Item | InnerList): member is InnerList {
  return Array.isArray(member[0]);
}

function lowercase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
