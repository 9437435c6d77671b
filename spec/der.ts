// A strict reader of the little DER a hot path needs (X.690): one TLV at a time, bounds checked, definite lengths
// only, low tag numbers only. It throws on anything else; a caller that must judge any input falls back to
// @peculiar/x509, which reads everything but costs ~2 ms a certificate.

/** One element: its tag byte and where its contents lie in the buffer. */
export interface Tlv {
  tag: number;
  /** Where its tag byte is. */
  at: number;
  start: number;
  end: number;
}

export class DerError extends Error {}

/** A well-formed element in a shape the fast reader leaves to a full parser. */
export class UnusualShape extends DerError {}

/** `read(der)`, or undefined where it throws: a hot path's reader, which leaves anything it does not know to a full parser. */
export function readOrUndefined<T>(read: (der: Uint8Array) => T, der: Uint8Array): T | undefined {
  try {
    return read(der);
  } catch {
    return undefined;
  }
}

/** The element at `at`, which must end by `limit`. */
export function readTlv(der: Uint8Array, at: number, limit = der.length): Tlv {
  if (at + 2 > limit) throw new DerError(`DER: element at ${at} runs past its end`);
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError(`DER: high tag number at ${at}`);
  let len = der[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new DerError(`DER: length of ${n} bytes at ${at}`);
    if (start + n > limit) throw new DerError(`DER: length at ${at} runs past its end`);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!;
    start += n;
  }
  const end = start + len;
  if (end > limit) throw new DerError(`DER: element at ${at} runs past its end`);
  return { tag, at, start, end };
}

/** The elements inside a constructed one, in order. */
export function childrenOf(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = readTlv(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

/** The element's tag must be `tag`. */
export function expectTag(el: Tlv | undefined, tag: number, what: string): Tlv {
  if (el?.tag !== tag) throw new DerError(`DER: ${what} is not tag 0x${tag.toString(16)}`);
  return el;
}

/** An OBJECT IDENTIFIER's contents in dotted form. */
export function oidOf(der: Uint8Array, el: Tlv): string {
  expectTag(el, 0x06, 'an object identifier');
  if (el.end === el.start) throw new DerError('DER: empty object identifier');
  const first = der[el.start]!;
  const parts = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  let n = 0;
  for (let i = el.start + 1; i < el.end; i++) {
    const b = der[i]!;
    n = n * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(n);
      n = 0;
    }
  }
  return parts.join('.');
}

/** The contents' bytes as text, printable ASCII only (IA5String names, UTCTime...). */
export function asciiOf(der: Uint8Array, el: Tlv): string {
  let s = '';
  for (let i = el.start; i < el.end; i++) {
    const b = der[i]!;
    if (b < 0x20 || b >= 0x7f) throw new DerError('DER: a byte outside printable ASCII in a text element');
    s += String.fromCharCode(b);
  }
  return s;
}

/** UTCTime (RFC 5280: YY < 50 is 20YY) or GeneralizedTime, in the only forms RFC 5280 allows: seconds, then Z. */
export function timeOf(der: Uint8Array, el: Tlv): Date {
  const text = asciiOf(der, el);
  const m =
    el.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : el.tag === 0x18
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
        : null;
  if (!m) throw new DerError(`DER: time ${JSON.stringify(text)} is not an RFC 5280 time`);
  const year = el.tag === 0x17 ? (Number(m[1]) < 50 ? 2000 : 1900) + Number(m[1]) : Number(m[1]);
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}
