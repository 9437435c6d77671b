// A large fleet keeps its devices' EC keys as JWK text and imports them to sign; a small one holds the KeyObjects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { FleetKeys, KEYS_HELD_UP_TO_CLIENTS } from '../../simulators/fleet/device-keys.ts';

function ecKey(): KeyObject {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const pub = ecdh.getPublicKey();
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    d: ecdh.getPrivateKey().toString('base64url'),
    x: pub.subarray(1, 33).toString('base64url'),
    y: pub.subarray(33).toString('base64url'),
  };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

const identity = { keyId: 'k', algorithm: 'ecdsa-p256-sha256' as const };
const data = Buffer.from('"@method": PUT');

function signsFor(key: KeyObject, privateKey: KeyObject): boolean {
  const signature = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return verify('sha256', data, { key: createPublicKey(key), dsaEncoding: 'ieee-p1363' }, signature);
}

test('a fleet up to the threshold holds each KeyObject as it is', () => {
  const keys = FleetKeys.forClients(KEYS_HELD_UP_TO_CLIENTS);
  assert.equal(keys.holdAll, true);
  const key = ecKey();
  const signer = keys.signer(identity, key, key.export({ format: 'jwk' }));
  assert.equal(signer.privateKey, key);
  assert.equal(keys.importedNow, 0);
});

test('a larger fleet imports each key to sign, keeps the last 256 imported, and every one signs as the device', () => {
  const keys = FleetKeys.forClients(KEYS_HELD_UP_TO_CLIENTS + 1);
  assert.equal(keys.holdAll, false);
  const devices = Array.from({ length: 300 }, () => ecKey());
  const signers = devices.map((key, i) =>
    keys.signer({ ...identity, keyId: `k${i}` }, key, i % 2 ? key.export({ format: 'jwk' }) : undefined),
  );
  assert.equal(keys.importedNow, 256, 'the keys given last are kept as they were given');
  assert.equal(signers[299]!.privateKey, devices[299], 'a device started last signs with the KeyObject it was given');
  const first = signers[0]!.privateKey;
  assert.notEqual(first, devices[0], 'device 0 was let go: its key is imported again from the JWK');
  assert.equal(signers[0]!.privateKey, first, 'a device signing again soon uses the same import');
  for (const [i, signer] of signers.entries()) assert.ok(signsFor(devices[i]!, signer.privateKey), `device ${i}`);
  assert.equal(keys.importedNow, 256);
  assert.notEqual(signers[0]!.privateKey, first, 'device 0 was dropped, and imported again');
  assert.ok(signsFor(devices[0]!, signers[0]!.privateKey));
  assert.equal(signers[7]!.keyId, 'k7');
});

test('a large fleet carries a clock skew, and holds a key that is not EC', () => {
  const keys = FleetKeys.forClients(50_000);
  const skewed = keys.signer({ ...identity, clockSkewSeconds: -30 }, ecKey(), undefined);
  assert.equal(skewed.clockSkewSeconds, -30);
  assert.equal(keys.signer(identity, ecKey(), undefined).clockSkewSeconds, undefined);
  const { privateKey } = generateKeyPairSync('ed25519');
  assert.equal(keys.signer({ ...identity, algorithm: 'ed25519' }, privateKey, undefined).privateKey, privateKey);
});
