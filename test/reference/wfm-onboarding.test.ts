// §2.3, §4.3, §5, P2, P3: the Certificate API and onboarding of the reference WFM.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRootCa } from '../../protocol/pki.ts';
import { call, fromIssued, newDevice, onboardingBody, startHarness, type Harness } from './wfm-harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const ONBOARDING = '/api/v1/onboarding';
const DAY = 86_400_000;

test('P2 Certificate API serves the base64 of the root CA PEM without authentication', async () => {
  const res = await call(h, { method: 'GET', path: '/api/v1/onboarding/certificate' });
  assert.equal(res.status, 200);
  assert.equal(Buffer.from(res.json.certificate, 'base64').toString('utf8'), h.rootCa.certPem);
});

test('§4.3 201: a signed request with a trusted certificate gets a URL-safe clientId; again gives the same id', async () => {
  const device = await newDevice(h.deviceCa);
  const first = await call(h, { method: 'POST', path: ONBOARDING, body: onboardingBody(device), device });
  assert.equal(first.status, 201, first.text);
  assert.match(first.json.clientId, /^[A-Za-z0-9._~-]+$/);
  const again = await call(h, { method: 'POST', path: ONBOARDING, body: onboardingBody(device), device });
  assert.equal(again.status, 201);
  assert.equal(again.json.clientId, first.json.clientId);
});

test('§4.3 201 for each P3 key type: EC P-256, RSA, Ed25519', async () => {
  for (const keyAlgorithm of ['P-256', 'RSA-3072', 'Ed25519'] as const) {
    const device = await newDevice(h.deviceCa, { keyAlgorithm });
    const res = await call(h, { method: 'POST', path: ONBOARDING, body: onboardingBody(device), device });
    assert.equal(res.status, 201, `${keyAlgorithm}: ${res.text}`);
  }
});

test('§4.3 201 with the certificate as base64 of its PEM', async () => {
  const device = await newDevice(h.deviceCa);
  const body = { ...onboardingBody(device), certificate: Buffer.from(device.issued.certPem).toString('base64') };
  assert.equal((await call(h, { method: 'POST', path: ONBOARDING, body, device })).status, 201);
});

test('§7 400: not JSON, wrong kind, missing certificate, undecodable certificate', async () => {
  const device = await newDevice(h.deviceCa);
  const bodies: unknown[] = [
    '{"kind": ',
    { ...onboardingBody(device), kind: 'Onboarding' },
    { apiVersion: 'v1', kind: 'OnboardingRequest' },
    { ...onboardingBody(device), certificate: Buffer.from('not a certificate').toString('base64') },
    [onboardingBody(device)],
  ];
  for (const body of bodies) {
    const res = await call(h, { method: 'POST', path: ONBOARDING, body, device });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(typeof res.json.error, 'string');
  }
});

test('P3 400: Content-Digest missing or wrong', async () => {
  const device = await newDevice(h.deviceCa);
  const body = onboardingBody(device);
  const wrong = await call(h, {
    method: 'POST',
    path: ONBOARDING,
    body,
    device,
    after: { 'content-digest': 'sha-256=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:' },
  });
  assert.equal(wrong.status, 400);
  const unsigned = await call(h, { method: 'POST', path: ONBOARDING, body });
  assert.equal(unsigned.status, 400, 'an unsigned body has no Content-Digest either');
});

test('P3 401: unsigned, signed by another key, or keyid not the certificate hash', async () => {
  const device = await newDevice(h.deviceCa);
  const other = await newDevice(h.deviceCa);
  const body = onboardingBody(device);
  const { contentDigest } = await import('../../protocol/content-digest.ts');
  const digestOnly = await call(h, {
    method: 'POST',
    path: ONBOARDING,
    body,
    headers: { 'content-digest': contentDigest(Buffer.from(JSON.stringify(body))) },
  });
  assert.equal(digestOnly.status, 401);
  const wrongKey = await call(h, { method: 'POST', path: ONBOARDING, body, device: { ...other, keyId: device.keyId } });
  assert.equal(wrongKey.status, 401);
  const wrongKeyId = await call(h, { method: 'POST', path: ONBOARDING, body, device, keyId: other.keyId });
  assert.equal(wrongKeyId.status, 401);
});

test('§7 403: untrusted CA, expired, not yet valid, self-signed', async () => {
  const stranger = await createRootCa('stranger CA');
  const cases = {
    untrusted: await newDevice(stranger),
    expired: await newDevice(h.deviceCa, { notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) }),
    notYetValid: await newDevice(h.deviceCa, { notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 10 * DAY) }),
    selfSigned: fromIssued(await createRootCa('self-signed device')),
  };
  for (const [name, device] of Object.entries(cases)) {
    const res = await call(h, { method: 'POST', path: ONBOARDING, body: onboardingBody(device), device });
    assert.equal(res.status, 403, `${name}: ${res.text}`);
  }
});

test('P5 trustClientCertificate makes an untrusted certificate onboard (201)', async () => {
  const device = fromIssued(await createRootCa('pinned device'));
  const body = onboardingBody(device);
  assert.equal((await call(h, { method: 'POST', path: ONBOARDING, body, device })).status, 403);
  await h.wfm.hooks.trustClientCertificate({ certificatePem: device.issued.certPem });
  assert.equal((await call(h, { method: 'POST', path: ONBOARDING, body, device })).status, 201);
});

test('§4.3 403: a retired client onboarding again is rejected', async () => {
  const device = await newDevice(h.deviceCa);
  const res = await call(h, { method: 'POST', path: ONBOARDING, body: onboardingBody(device), device });
  await h.wfm.hooks.retireClient({ clientId: res.json.clientId });
  assert.equal((await call(h, { method: 'POST', path: ONBOARDING, body: onboardingBody(device), device })).status, 403);
});
