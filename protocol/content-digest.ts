// RFC 9530 Content-Digest: the body integrity header every signed request with a body carries (profiles.md P3).
import { createHash } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

export type ContentDigestVerdict = 'ok' | 'missing' | 'mismatch' | 'malformed' | 'unsupported';

/** RFC 9530 algorithm keys this kit understands, mapped to node:crypto hash names. */
const SUPPORTED: Record<string, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };
const ONE_DIGEST = /^(sha-256|sha-512)=:([A-Za-z0-9+/]+={0,2}):$/;

/** `sha-256=:<base64>:` over the exact body bytes. */
export function contentDigest(body: Uint8Array): string {
  // The one-member dictionary written directly (RFC 8941 §4.1.8 byte sequence): it is on every signed request's path.
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/**
 * Checks a Content-Digest header against the body. The header is a structured-field dictionary and may
 * list several algorithms: every supported one must match; unknown ones are ignored (RFC 9530 §2).
 */
export function verifyContentDigest(header: string | undefined, body: Uint8Array): ContentDigestVerdict {
  if (header === undefined || header.trim() === '') return 'missing';
  // The form every signer sends, one algorithm in canonical base64, matched without the dictionary parser (it is on
  // every signed request's path); anything else, a mismatch included, is judged by the parser below.
  const one = ONE_DIGEST.exec(header);
  if (one && createHash(SUPPORTED[one[1]!]!).update(body).digest('base64') === one[2]) return 'ok';
  let dict: ReturnType<typeof parseDictionary>;
  try {
    dict = parseDictionary(header);
  } catch {
    return 'malformed';
  }
  let checked = 0;
  for (const [key, member] of dict) {
    const value = member[0];
    if (!(value instanceof ArrayBuffer)) return 'malformed';
    const hashName = SUPPORTED[key];
    if (!hashName) continue;
    const expected = createHash(hashName).update(body).digest();
    if (!expected.equals(Buffer.from(value))) return 'mismatch';
    checked++;
  }
  return checked === 0 ? 'unsupported' : 'ok';
}
