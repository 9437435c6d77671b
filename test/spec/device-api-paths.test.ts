// The Device API paths percent-encode each segment of a device id (interfaces.md §4: ids with '/' name a child).
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deviceApiPaths, resolveProfile } from '../../spec/profile.ts';
import { fcOptions } from '../support/fc.ts';

const encodedBySegment = (id: string) => id.split('/').map(encodeURIComponent).join('/');
const idChar = fc.constantFrom(...'aZ09-._~/ %?#é!*'.split(''), 'gw', 'x');
const ids = fc.array(idChar, { maxLength: 16 }).map((cs) => cs.join(''));

test('capabilities paths encode every segment of any device id, and the client id whole', () => {
  const scoped = deviceApiPaths(resolveProfile({ paths: 'client-scoped' }));
  const flat = deviceApiPaths(resolveProfile({ paths: 'seed' }));
  fc.assert(
    fc.property(ids, ids, (deviceId, clientId) => {
      assert.equal(flat.capabilities(deviceId), `/api/v1/capabilities/${encodedBySegment(deviceId)}`);
      assert.equal(
        scoped.capabilities(deviceId, clientId),
        `/api/v1/clients/${encodeURIComponent(clientId)}/capabilities/${encodedBySegment(deviceId)}`,
      );
    }),
    fcOptions(1_000),
  );
  assert.equal(flat.capabilities('gw-000001/ch 1'), '/api/v1/capabilities/gw-000001/ch%201');
});
