// interfaces.md §4.1 and §4.2 (with the lifecycle table of §3): PUT and DELETE /api/v1/capabilities/{deviceId}.
import { readFileSync } from 'node:fs';
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import type { DeviceCapabilities } from '../spec/types.ts';

const example = JSON.parse(readFileSync(new URL('../fixtures/documents/capabilities-dev1.json', import.meta.url), 'utf8')) as DeviceCapabilities;

/** A valid workload-hosting document (§2.1) for `id`. */
function capabilities(id: string): DeviceCapabilities {
  return { ...example, properties: { ...example.properties, id } };
}

test.describe('§4.1 PUT /api/v1/capabilities/{deviceId}', () => {
  test('CAP-PUT-201 PUT for a deviceId with no document creates it: 201', req('CAP-PUT-201'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    expect((await client.api.putCapabilities(id, capabilities(id))).status).toBe(201);
  });

  test('CAP-PUT-200 PUT again for a deviceId whose document exists updates it: 200', req('CAP-PUT-200'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    expect((await client.api.putCapabilities(id, capabilities(id))).status, 'the first PUT creates the document').toBe(201);
    const updated = capabilities(id);
    updated.properties.memory = '32 Gi';
    expect((await client.api.putCapabilities(id, updated)).status).toBe(200);
  });

  test('CAP-PUT-400 PUT with a body that is not JSON at all: 400 (P9)', req('CAP-PUT-400'), async ({ device }) => {
    const client = await device();
    expect((await client.api.putCapabilities(client.deviceId(), '{"properties": {"id": ')).status).toBe(400);
  });
});

test.describe('§4.2 DELETE /api/v1/capabilities/{deviceId}', () => {
  test('CAP-DELETE-204 DELETE of a device the client has deletes it: 204', req('CAP-DELETE-204'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    expect((await client.api.putCapabilities(id, capabilities(id))).status, 'the PUT creates the device').toBe(201);
    expect((await client.api.deleteCapabilities(id)).status).toBe(204);
  });

  test('CAP-DELETE-404 DELETE of a deviceId the client never reported: 404', req('CAP-DELETE-404'), async ({ device }) => {
    const client = await device();
    expect((await client.api.deleteCapabilities(client.deviceId())).status).toBe(404);
  });
});
