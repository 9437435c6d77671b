// RFC 9421 §4: the Signature-Input and Signature fields of a request, read into the one member a verifier judges.
// Every signed request goes through here, so the form signers send (one member, canonical RFC 8941 serialization) is
// read with two regular expressions; anything else goes to the structured-field parser, which is the reference: a
// property test holds the two to the same result on every input the fast reader accepts.
import { parseDictionary, serializeInnerList, type BareItem, type Dictionary, type Item, type InnerList } from 'structured-headers';

export interface SignatureMember {
  /** `sig1` when present (profiles.md P3), else the first member. */
  label: string;
  /** The covered component names, in order. */
  components: string[];
  /**
   * The covered components that carry no parameters: what counts as covering a required component. Fewer than
   * `components` when one carries parameters (;sf, ;key, ;req, ;bs), which the kit does not derive.
   */
  plainComponents: string[];
  /** The signature parameters (created, keyid, alg, expires, ...). */
  params: Map<string, BareItem>;
  /** The `@signature-params` value: the inner list as RFC 8941 §4.1 serializes it (RFC 9421 §2.3). */
  serializedParams: string;
  signature: Buffer;
}

export interface SignatureFieldsFailure {
  reason: 'missing' | 'malformed';
  detail: string;
}

export const SIGNATURE_LABEL = 'sig1';

const KEY = '[a-z*][a-z0-9_.*-]*';
/** An sf-string without escapes: its text is its own serialization. */
const STRING = '"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*"';
/** An sf-integer as serialized: no leading zero, no `-0`, at most 15 digits. */
const INTEGER = '(?:0|-?[1-9][0-9]{0,14})';
const CANONICAL_INPUT = new RegExp(`^(${KEY})=\\(((?:${STRING}(?: ${STRING})*)?)\\)((?:;${KEY}=(?:${INTEGER}|${STRING}))*)$`);
const PARAMETER = new RegExp(`;(${KEY})=(?:(${INTEGER})|"([^"]*)")`, 'y');
const COMPONENT = /"([^"]*)"/g;
const CANONICAL_SIGNATURE = new RegExp(`^(${KEY})=:((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?):$`);

/** The member to verify, or why there is none. */
export function readSignatureFields(
  rawInput: string | undefined,
  rawSignature: string | undefined,
): SignatureMember | SignatureFieldsFailure {
  return (
    (rawInput !== undefined && rawSignature !== undefined && readCanonicalSignatureFields(rawInput, rawSignature)) ||
    readSignatureFieldsByParser(rawInput, rawSignature)
  );
}

/** One member in each field, serialized canonically, under the same label; undefined for anything else. */
export function readCanonicalSignatureFields(rawInput: string, rawSignature: string): SignatureMember | undefined {
  const input = CANONICAL_INPUT.exec(rawInput);
  if (!input) return undefined;
  const signature = CANONICAL_SIGNATURE.exec(rawSignature);
  const label = input[1]!;
  if (!signature || signature[1] !== label) return undefined;
  const params = new Map<string, BareItem>();
  const text = input[3]!;
  PARAMETER.lastIndex = 0;
  for (let m = PARAMETER.exec(text); m; m = PARAMETER.exec(text)) {
    // A repeated key keeps its first place and its last value when parsed: not its own serialization.
    if (params.has(m[1]!)) return undefined;
    params.set(m[1]!, m[2] !== undefined ? Number(m[2]) : m[3]!);
  }
  const components: string[] = [];
  for (const m of input[2]!.matchAll(COMPONENT)) components.push(m[1]!);
  return {
    label,
    components,
    plainComponents: components,
    params,
    serializedParams: rawInput.slice(label.length + 1),
    signature: Buffer.from(signature[2]!, 'base64'),
  };
}

/** The same reading through the structured-field parser and serializer: any form RFC 8941 allows. */
export function readSignatureFieldsByParser(
  rawInput: string | undefined,
  rawSignature: string | undefined,
): SignatureMember | SignatureFieldsFailure {
  if (rawInput === undefined && rawSignature === undefined) return { reason: 'missing', detail: 'no Signature or Signature-Input header' };
  if (rawInput === undefined || rawSignature === undefined)
    return { reason: 'malformed', detail: 'Signature and Signature-Input must both be sent' };
  let inputs: Dictionary;
  let signatures: Dictionary;
  try {
    inputs = parseDictionary(rawInput);
    signatures = parseDictionary(rawSignature);
  } catch {
    return { reason: 'malformed', detail: 'Signature or Signature-Input is not a structured-field dictionary' };
  }
  const label = inputs.has(SIGNATURE_LABEL) ? SIGNATURE_LABEL : inputs.keys().next().value;
  if (label === undefined) return { reason: 'missing', detail: 'Signature-Input lists no signature' };
  const entry = inputs.get(label)!;
  const signature = signatures.get(label);
  if (!isInnerList(entry)) return { reason: 'malformed', detail: `Signature-Input ${label} is not an inner list` };
  if (!signature || isInnerList(signature) || !(signature[0] instanceof ArrayBuffer))
    return { reason: 'malformed', detail: `no byte-sequence Signature for label ${label}` };
  const [items, params] = entry;
  if (!items.every((i) => typeof i[0] === 'string')) return { reason: 'malformed', detail: 'covered components must be strings' };
  return {
    label,
    components: items.map((i) => i[0] as string),
    plainComponents: items.filter((i) => i[1].size === 0).map((i) => i[0] as string),
    params,
    serializedParams: serializeInnerList(entry),
    signature: Buffer.from(signature[0]),
  };
}

export function isSignatureFieldsFailure(r: SignatureMember | SignatureFieldsFailure): r is SignatureFieldsFailure {
  return 'reason' in r;
}

function isInnerList(member: Item | InnerList): member is InnerList {
  return Array.isArray(member[0]);
}
