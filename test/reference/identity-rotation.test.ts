// Model-based property of trust anchor rotation (P5, §2.6): random begin/finish/fetch against a live service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TrustBundle } from '../../spec/types.ts';
import { identityFixture, type IdentityFixture } from './identity-fixture.ts';

interface Model {
  /** x5c of the x509-svid anchors, oldest first. */
  anchors: string[];
  sequence: number;
  /** Every sequence seen, with the body it was seen with: a sequence never names two bundles. */
  bodies: Map<number, string>;
  /** The ETag a client last cached, and the sequence it was cached at. */
  cached: { etag: string; sequence: number };
}
type Cmd = fc.AsyncCommand<Model, IdentityFixture>;

async function observe(m: Model, f: IdentityFixture): Promise<{ etag: string; bundle: TrustBundle }> {
  const r = await f.call(f.service.trustBundleUri);
  assert.equal(r.status, 200);
  const bundle = JSON.parse(r.text) as TrustBundle;
  const seq = bundle.spiffe_sequence!;
  const anchors = bundle.keys.filter((k) => k.use === 'x509-svid').map((k) => k.x5c![0]!);
  assert.ok(anchors.length === 1 || anchors.length === 2, `anchors: ${anchors.length}`);
  const changed = anchors.join() !== m.anchors.join();
  if (changed) assert.ok(seq > Math.max(...m.bodies.keys()), `sequence ${seq} after ${[...m.bodies.keys()]}`);
  else assert.equal(seq, m.sequence);
  if (m.bodies.has(seq)) assert.equal(r.text, m.bodies.get(seq), `sequence ${seq} repeated for another bundle`);
  m.bodies.set(seq, r.text);
  m.sequence = seq;
  return { etag: r.headers.etag!, bundle };
}

class Begin implements Cmd {
  check = () => true;
  async run(m: Model, f: IdentityFixture) {
    const was = m.anchors;
    assert.deepEqual(await f.service.hooks.rotateTrustAnchor({ phase: 'begin' }), {});
    m.anchors = (await observe(m, f)).bundle.keys.filter((k) => k.use === 'x509-svid').map((k) => k.x5c![0]!);
    assert.equal(m.anchors.length, 2);
    assert.equal(m.anchors[0], was[0], 'the old anchor stays first');
    if (was.length === 2) assert.deepEqual(m.anchors, was, 'begin during an overlap changes nothing');
  }
  toString = () => 'begin';
}

class Finish implements Cmd {
  check = () => true;
  async run(m: Model, f: IdentityFixture) {
    const was = m.anchors;
    assert.deepEqual(await f.service.hooks.rotateTrustAnchor({ phase: 'finish' }), {});
    m.anchors = (await observe(m, f)).bundle.keys.filter((k) => k.use === 'x509-svid').map((k) => k.x5c![0]!);
    assert.deepEqual(m.anchors, [was.at(-1)], 'after finish exactly the newest anchor');
  }
  toString = () => 'finish';
}

class ConditionalFetch implements Cmd {
  check = () => true;
  async run(m: Model, f: IdentityFixture) {
    const r = await f.call(f.service.trustBundleUri, { headers: { 'if-none-match': m.cached.etag } });
    if (m.sequence === m.cached.sequence) {
      assert.equal(r.status, 304);
      assert.equal(r.headers.etag, m.cached.etag);
      return;
    }
    assert.equal(r.status, 200);
    assert.notEqual(r.headers.etag, m.cached.etag, 'a changed bundle has a new ETag');
    const { etag } = await observe(m, f);
    m.cached = { etag, sequence: m.sequence };
  }
  toString = () => 'fetch';
}

const seed = process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED);
const path = process.env.WFMCK_PATH;

test('sequence strictly increases on every change and never repeats; 1 or 2 anchors; one after finish', async () => {
  const commands = fc.commands([fc.constant(new Begin()), fc.constant(new Finish()), fc.constant(new ConditionalFetch())], {
    maxCommands: 15,
  });
  const property = fc.asyncProperty(commands, async (cmds) => {
    const f = await identityFixture({ includeJwtSvidKey: true });
    try {
      const first = await f.call(f.service.trustBundleUri);
      const bundle = JSON.parse(first.text) as TrustBundle;
      const model: Model = {
        anchors: bundle.keys.filter((k) => k.use === 'x509-svid').map((k) => k.x5c![0]!),
        sequence: bundle.spiffe_sequence!,
        bodies: new Map([[bundle.spiffe_sequence!, first.text]]),
        cached: { etag: first.headers.etag!, sequence: bundle.spiffe_sequence! },
      };
      await fc.asyncModelRun(() => ({ model, real: f }), cmds);
    } finally {
      await f.close();
    }
  });
  await fc.assert(property, { numRuns: 25, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) });
});

test('two concurrent begins add one anchor and one sequence step', async () => {
  const f = await identityFixture();
  try {
    await Promise.all([f.service.hooks.rotateTrustAnchor({ phase: 'begin' }), f.service.hooks.rotateTrustAnchor({ phase: 'begin' })]);
    const bundle = f.service.bundle();
    assert.equal(bundle.keys.filter((k) => k.use === 'x509-svid').length, 2);
    assert.equal(bundle.spiffe_sequence, 2);
  } finally {
    await f.close();
  }
});
