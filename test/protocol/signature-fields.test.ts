// The fast reader of Signature-Input and Signature against the structured-field parser it stands in for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readCanonicalSignatureFields, readSignatureFields, readSignatureFieldsByParser } from '../../protocol/signature-fields.ts';

const seed = process.env.WFMCK_SEED ? Number(process.env.WFMCK_SEED) : undefined;

/** Text that is, or is close to, what RFC 8941 allows in each place, with the departures a hostile signer tries. */
const key = fc.constantFrom('sig1', 'sig2', 'created', 'keyid', 'alg', 'expires', 'nonce', 'tag', 'a*b', 'x.y-z_1', 'Sig1', '1a', '');
const sfString = fc.oneof(
  fc.constantFrom('"@method"', '"@target-uri"', '"content-digest"', '"content-type"', '""', '"k1"'),
  fc.stringMatching(/^"[ !#-~]{0,12}"$/),
  fc.constantFrom('"a\\"b"', '"a\\\\b"', '"tab\there"', '"é"', '"unterminated'),
);
const integer = fc.oneof(
  fc.integer({ min: -1e6, max: 2e9 }).map(String),
  fc.constantFrom('0', '-0', '007', '999999999999999', '1000000000000000', '1.5', '-1.250'),
);
const bareItem = fc.oneof(
  { weight: 4, arbitrary: integer },
  { weight: 4, arbitrary: sfString },
  fc.constantFrom('?1', '?0', 'token', 'tok/en', ':AQID:', '@12345', '%"x"'),
);
const ows = fc.constantFrom('', '', '', ' ', '  ');
const parameter = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(ows, key, bareItem).map(([s, k, v]) => `;${s}${k}=${v}`) },
  { weight: 1, arbitrary: key.map((k) => `;${k}`) },
);
const parameters = fc.array(parameter, { maxLength: 5 }).map((ps) => ps.join(''));
const component = fc.oneof(
  { weight: 6, arbitrary: sfString },
  { weight: 1, arbitrary: fc.tuple(sfString, parameters).map(([c, p]) => c + p) },
  { weight: 1, arbitrary: fc.constantFrom('@method', 'tok') },
);
const innerList = fc
  .tuple(fc.array(component, { maxLength: 5 }), fc.constantFrom(' ', ' ', ' ', '  '), ows, ows, parameters)
  .map(([items, between, open, close, params]) => `(${open}${items.join(between)}${close})${params}`);
const inputMember = fc.tuple(key, innerList).map(([k, v]) => `${k}=${v}`);
const base64 = fc.oneof(
  fc.uint8Array({ maxLength: 70 }).map((b) => Buffer.from(b).toString('base64')),
  fc.uint8Array({ minLength: 1, maxLength: 70 }).map((b) => Buffer.from(b).toString('base64').replace(/=+$/, '')),
  fc.constantFrom('AB$=', 'A===', 'QUJD', 'QUI=', 'QQ=='),
);
const signatureMember = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, base64).map(([k, b]) => `${k}=:${b}:`) },
  { weight: 1, arbitrary: fc.tuple(key, base64, parameters).map(([k, b, p]) => `${k}=:${b}:${p}`) },
  { weight: 1, arbitrary: key.map((k) => `${k}=("x")`) },
);
const dictionary = (member: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: member },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(member, { minLength: 2, maxLength: 3 }), fc.constantFrom(', ', ',', ' , '))
        .map(([ms, sep]) => ms.join(sep)),
    },
    { weight: 1, arbitrary: fc.tuple(ows, member, ows).map(([a, m, b]) => a + m + b) },
  );

/** What a P3 signer sends: one member, canonical, with the covered components and parameters the kit uses. */
const canonicalPair = fc
  .tuple(
    fc.constantFrom('sig1', 'sig2', 'a*b'),
    fc.subarray(['"@method"', '"@target-uri"', '"content-digest"', '"content-type"', '"@authority"']),
    fc.integer({ min: 0, max: 2 ** 40 }),
    fc.stringMatching(/^[ !#-[\]-~]{0,40}$/),
    fc.uint8Array({ minLength: 0, maxLength: 256 }),
    fc.boolean(),
  )
  .map(([label, components, created, keyId, signature, alg]) => ({
    input: `${label}=(${components.join(' ')});created=${created};keyid="${keyId}"${alg ? ';alg="ecdsa-p256-sha256"' : ''}`,
    signature: `${label}=:${Buffer.from(signature).toString('base64')}:`,
  }));

/** A canonical pair with one character inserted or deleted somewhere: the near misses a fast reader gets wrong. */
const nearCanonicalPair = fc
  .tuple(
    canonicalPair,
    fc.boolean(),
    fc.nat(),
    fc.constantFrom('', ' ', '0', '-', '\\', '"', ';', ',', '=', ':', 'x', '?1', '*', '(', ')', 'A'),
  )
  .map(([pair, inInput, at, text]) => {
    const field = inInput ? pair.input : pair.signature;
    const i = at % (field.length + 1);
    // The empty insertion deletes the character at i instead.
    const mutated = text === '' ? field.slice(0, i) + field.slice(i + 1) : field.slice(0, i) + text + field.slice(i);
    return inInput ? { input: mutated, signature: pair.signature } : { input: pair.input, signature: mutated };
  });

test('property: whatever the fast reader accepts, it reads exactly as the structured-field parser does', () => {
  let fast = 0;
  const pairs = fc.oneof(
    fc.tuple(dictionary(inputMember), dictionary(signatureMember)).map(([input, signature]) => ({ input, signature })),
    nearCanonicalPair,
  );
  fc.assert(
    fc.property(pairs, ({ input, signature }) => {
      const read = readCanonicalSignatureFields(input, signature);
      if (read !== undefined) {
        fast++;
        assert.deepStrictEqual(read, readSignatureFieldsByParser(input, signature), `Signature-Input: ${input}\nSignature: ${signature}`);
      }
      assert.deepStrictEqual(readSignatureFields(input, signature), readSignatureFieldsByParser(input, signature));
    }),
    { numRuns: 3000, seed },
  );
  // The generator must reach the fast reader, or the comparison above proves nothing.
  assert.ok(fast > 100, `only ${fast} generated pairs were read by the fast reader`);
});

test("property: a P3 signer's fields take the fast reader, with the parser's result", () => {
  fc.assert(
    fc.property(canonicalPair, ({ input, signature }) => {
      const read = readCanonicalSignatureFields(input, signature);
      assert.ok(read, `not read fast: ${input} / ${signature}`);
      assert.deepStrictEqual(read, readSignatureFieldsByParser(input, signature));
    }),
    { numRuns: 500, seed },
  );
});

test('forms that serialize otherwise go to the parser: leading zeros, -0, escapes, spaces, repeated keys, two members', () => {
  const sig = 'sig1=:QUJD:';
  for (const input of [
    'sig1=("@method");created=007;keyid="k"',
    'sig1=("@method");created=-0;keyid="k"',
    'sig1=("@method");created=1;keyid="a\\"b"',
    'sig1=( "@method");created=1;keyid="k"',
    'sig1=("@method"  "@target-uri");created=1;keyid="k"',
    'sig1=("@method");created=1;created=2;keyid="k"',
    'sig1=("@method");created=1;keyid="k", sig2=("@method");created=1;keyid="k"',
    'sig1=("@method";sf);created=1;keyid="k"',
    'sig1=("@method");created=1;keyid=k',
    'sig1=("@method");created=1;keyid="k";x',
  ])
    assert.equal(readCanonicalSignatureFields(input, sig), undefined, input);
  const input = 'sig1=("@method");created=1;keyid="k"';
  for (const signature of ['sig1=:QUI:', 'sig2=:QUJD:', 'sig1=:QUJD:;x=1', 'sig1=:QUJD:, sig2=:QUJD:', 'sig1=(:QUJD:)'])
    assert.equal(readCanonicalSignatureFields(input, signature), undefined, signature);
  // And the parser still judges them: a repeated key keeps its last value.
  const repeated = readSignatureFields('sig1=("@method");created=1;created=2;keyid="k"', sig);
  assert.ok(
    !('reason' in repeated) && repeated.params.get('created') === 2 && repeated.serializedParams === '("@method");created=2;keyid="k"',
  );
});

test("the missing and malformed verdicts stay the parser's", () => {
  assert.deepStrictEqual(readSignatureFields(undefined, undefined), {
    reason: 'missing',
    detail: 'no Signature or Signature-Input header',
  });
  assert.equal((readSignatureFields('sig1=("@method");created=1', undefined) as { reason: string }).reason, 'malformed');
  assert.equal((readSignatureFields('sig1=("@method");created=1;keyid="k"', 'sig2=:QUJD:') as { reason: string }).reason, 'malformed');
  assert.equal((readSignatureFields('sig1=(@method);created=1', 'sig1=:QUJD:') as { reason: string }).reason, 'malformed');
});
