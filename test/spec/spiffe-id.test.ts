// P10 SPIFFE IDs: the client and WFM shapes, the SPIFFE-ID grammar, and every mutation of a valid ID refused with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  clientSpiffeId,
  formatSpiffeId,
  identityOf,
  parseSpiffeId,
  roleOf,
  wfmSpiffeId,
  type SpiffeIdReason,
} from '../../spec/spiffe-id.ts';
import { fcOptions } from '../support/fc.ts';

const fcOpts = fcOptions(300);
const trustDomainArb = fc.string({ unit: fc.constantFrom(...'abcxyz0129.-_'), minLength: 1, maxLength: 20 });
const segmentArb = fc
  .string({ unit: fc.constantFrom(...'ABCxyz0129.-_'), minLength: 1, maxLength: 10 })
  .filter((s) => s !== '.' && s !== '..');
const idArb = fc.record({ trustDomain: trustDomainArb, segments: fc.array(segmentArb, { minLength: 1, maxLength: 6 }) });

test('P10 a client ID and a WFM ID are built, parsed back and told apart', () => {
  const client = clientSpiffeId({ trustDomain: 'example.org', vendor: 'platform', wfmId: 'wfm-1', clientId: 'gw_7' });
  assert.equal(client, 'spiffe://example.org/platform/wfm/wfm-1/client/gw_7');
  assert.equal(wfmSpiffeId({ trustDomain: 'example.org', vendor: 'platform', wfmId: 'wfm-1' }), 'spiffe://example.org/platform/wfm/wfm-1');
  assert.equal(roleOf(client), 'client');
  assert.equal(roleOf('spiffe://example.org/platform/wfm/wfm-1'), 'wfm');
  assert.deepEqual(identityOf(client), {
    role: 'client',
    trustDomain: 'example.org',
    vendor: 'platform',
    wfmId: 'wfm-1',
    clientId: 'gw_7',
  });
});

test('a valid SPIFFE ID of another shape has no P10 role', () => {
  for (const id of [
    'spiffe://example.org/ns/prod/sa/web',
    'spiffe://example.org/platform/wfm',
    'spiffe://example.org/platform/wfm/w/client',
    'spiffe://example.org/platform/wfm/w/agent/c',
    'spiffe://example.org/platform/x/w',
  ]) {
    assert.equal(parseSpiffeId(id).ok, true, id);
    assert.equal(roleOf(id), undefined, id);
  }
  assert.equal(roleOf('https://example.org/platform/wfm/w'), undefined);
});

test('building refuses a part that breaks the grammar or holds "/"', () => {
  const base = { trustDomain: 'example.org', vendor: 'platform', wfmId: 'w' };
  assert.throws(() => clientSpiffeId({ ...base, clientId: 'a/b' }), RangeError);
  assert.throws(() => clientSpiffeId({ ...base, clientId: '..' }), RangeError);
  assert.throws(() => clientSpiffeId({ ...base, clientId: '' }), RangeError);
  assert.throws(() => wfmSpiffeId({ ...base, trustDomain: 'Example.org' }), RangeError);
  assert.throws(() => wfmSpiffeId({ ...base, wfmId: 'w x' }), RangeError);
});

test('SPIFFE-ID §2 examples: each invalid text is refused with the reason it breaks', () => {
  const cases: [string, SpiffeIdReason][] = [
    ['https://example.org/a', 'scheme'],
    ['SPIFFE://example.org/a', 'scheme'],
    ['spiffe:/example.org/a', 'scheme'],
    ['spiffe://example.org', 'root-path'],
    ['spiffe://example.org/', 'empty-segment'],
    ['spiffe://example.org/a//b', 'empty-segment'],
    ['spiffe://example.org/a/', 'empty-segment'],
    ['spiffe://example.org/a/./b', 'dot-segment'],
    ['spiffe://example.org/..', 'dot-segment'],
    ['spiffe://example.org/a%20b', 'segment-chars'],
    ['spiffe://example.org/a~b', 'segment-chars'],
    ['spiffe:///a', 'empty-trust-domain'],
    ['spiffe://Example.org/a', 'trust-domain-chars'],
    ['spiffe://exa mple.org/a', 'trust-domain-chars'],
    ['spiffe://example.org:8443/a', 'port'],
    ['spiffe://user@example.org/a', 'userinfo'],
    ['spiffe://example.org/a?x=1', 'query'],
    ['spiffe://example.org/a#f', 'fragment'],
    [`spiffe://${'a'.repeat(256)}/a`, 'trust-domain-too-long'],
    [`spiffe://example.org/${'a'.repeat(2048)}`, 'too-long'],
  ];
  for (const [text, reason] of cases) {
    const r = parseSpiffeId(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) {
      assert.equal(r.reason, reason, text);
      assert.ok(r.message.length > 0);
    }
  }
  assert.deepEqual(parseSpiffeId('spiffe://example.org/a/.../b_-.c'), {
    ok: true,
    id: { trustDomain: 'example.org', segments: ['a', '...', 'b_-.c'] },
  });
});

test('property: format then parse round-trips every grammatical ID, and parse then format gives the text back', () => {
  fc.assert(
    fc.property(idArb, (id) => {
      const text = formatSpiffeId(id);
      const parsed = parseSpiffeId(text);
      assert.deepEqual(parsed, { ok: true, id: { trustDomain: id.trustDomain, segments: [...id.segments] } });
      if (parsed.ok) assert.equal(formatSpiffeId(parsed.id), text);
    }),
    fcOpts,
  );
});

test('property: clientSpiffeId and wfmSpiffeId round-trip through identityOf', () => {
  const parts = fc.record({ trustDomain: trustDomainArb, vendor: segmentArb, wfmId: segmentArb, clientId: segmentArb });
  fc.assert(
    fc.property(parts, (p) => {
      const { trustDomain, vendor, wfmId, clientId } = p;
      assert.deepEqual(identityOf(clientSpiffeId(p)), { role: 'client', trustDomain, vendor, wfmId, clientId });
      const w = { trustDomain, vendor, wfmId };
      assert.deepEqual(identityOf(wfmSpiffeId(w)), { role: 'wfm', ...w });
    }),
    fcOpts,
  );
});

/** Mutations of a valid ID, each with the one reason it must be refused for. */
type Mutation = { reason: SpiffeIdReason; apply: (td: string, segs: string[]) => string };
const path = (segs: string[]) => segs.join('/');
const MUTATIONS: Mutation[] = [
  { reason: 'scheme', apply: (td, s) => `http://${td}/${path(s)}` },
  { reason: 'scheme', apply: (td, s) => `Spiffe://${td}/${path(s)}` },
  { reason: 'userinfo', apply: (td, s) => `spiffe://u@${td}/${path(s)}` },
  { reason: 'port', apply: (td, s) => `spiffe://${td}:443/${path(s)}` },
  { reason: 'query', apply: (td, s) => `spiffe://${td}/${path(s)}?q` },
  { reason: 'fragment', apply: (td, s) => `spiffe://${td}/${path(s)}#f` },
  { reason: 'empty-trust-domain', apply: (_td, s) => `spiffe:///${path(s)}` },
  { reason: 'trust-domain-chars', apply: (td, s) => `spiffe://${td}X/${path(s)}` },
  { reason: 'trust-domain-chars', apply: (td, s) => `spiffe://${td}%41/${path(s)}` },
  { reason: 'root-path', apply: (td) => `spiffe://${td}` },
  { reason: 'empty-segment', apply: (td, s) => `spiffe://${td}/${path(s)}/` },
  { reason: 'empty-segment', apply: (td, s) => `spiffe://${td}/${s[0]}//${path(s.slice(1))}` },
  { reason: 'dot-segment', apply: (td, s) => `spiffe://${td}/${path([...s, '..'])}` },
  { reason: 'dot-segment', apply: (td, s) => `spiffe://${td}/${path(['.', ...s])}` },
  { reason: 'segment-chars', apply: (td, s) => `spiffe://${td}/${path([...s.slice(0, -1), `${s[s.length - 1]}*`])}` },
  { reason: 'segment-chars', apply: (td, s) => `spiffe://${td}/${path([`${s[0]} x`, ...s.slice(1)])}` },
];

test('property: every mutation of a valid ID is refused with the reason it introduces', () => {
  fc.assert(
    fc.property(idArb, fc.constantFrom(...MUTATIONS), ({ trustDomain, segments }, m) => {
      const text = m.apply(trustDomain, segments);
      const r = parseSpiffeId(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.equal(r.reason, m.reason, text);
      assert.equal(roleOf(text), undefined);
    }),
    fcOpts,
  );
});
