// interfaces.md §4.1 and §4.2 (with the lifecycle table of §3 and the error rows of §7): PUT and DELETE
// /api/v1/capabilities/{deviceId}.
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { ACCEPTED, INVALID_BODY_ANSWERS, capabilities, register, retiredClient } from '../fixtures/capabilities.ts';
import type { SimulatedClient } from '../fixtures/wfmck.ts';
import type { DeviceCapabilities } from '../spec/types.ts';

test.describe('§4.1 PUT /api/v1/capabilities/{deviceId}', () => {
  test('CAP-PUT-201 PUT for a deviceId with no document creates it: 201', req('CAP-PUT-201'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    expect(
      (await client.api.putCapabilities(id, capabilities(id))).status,
      '§4.1: a PUT for a deviceId with no document creates it: 201',
    ).toBe(201);
  });

  test('CAP-PUT-200 PUT again for a deviceId whose document exists updates it: 200', req('CAP-PUT-200'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    await register(client.api, [id]);
    expect(
      (await client.api.putCapabilities(id, capabilities(id, { memory: '32 Gi' }))).status,
      '§4.1: a PUT for an existing document updates it',
    ).toBe(200);
  });

  test(
    'CAP-PUT-400 ERR-CAP-PUT-400 ERR-NOT-JSON-400 PUT with a body that is not JSON at all: 400 (P9)',
    req('CAP-PUT-400', 'ERR-CAP-PUT-400', 'ERR-NOT-JSON-400'),
    async ({ device }) => {
      const client = await device();
      expect(
        (await client.api.putCapabilities(client.deviceId(), '{"properties": {"id": ')).status,
        '§7, P9: a body that is not JSON is answered 400',
      ).toBe(400);
    },
  );

  test(
    'ERR-SCHEMA-INVALID-400-OR-422 PUT with JSON that breaks the schema (no properties.vendor): 400 or 422',
    req('ERR-SCHEMA-INVALID-400-OR-422'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      const { vendor: _dropped, ...properties } = capabilities(id).properties;
      const status = (await client.api.putCapabilities(id, { properties } as never)).status;
      expect(INVALID_BODY_ANSWERS, `P9: §2.1.1 requires vendor; the answer is 400 or 422, got ${status}`).toContain(status);
    },
  );

  test(
    'CAP-PUT-422 ERR-CAP-PUT-422 PUT with a semantic error (a hosting device reporting otelCollector false): 400 or 422',
    req('CAP-PUT-422', 'ERR-CAP-PUT-422'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      const status = (await client.api.putCapabilities(id, capabilities(id, { otelCollector: false }))).status;
      expect(
        INVALID_BODY_ANSWERS,
        `§2.1.1: a workload-hosting device MUST report otelCollector true; P9: 400 or 422, got ${status}`,
      ).toContain(status);
    },
  );

  test(
    'CAP-PUT-403 ERR-CAP-PUT-403 PUT from a client whose relationship is retired: 403',
    req('CAP-PUT-403', 'ERR-CAP-PUT-403'),
    async ({ device, hooks }) => {
      const { client, id } = await retiredClient(device, hooks);
      expect(
        (await client.api.putCapabilities(id, capabilities(id, { memory: '8 Gi' }))).status,
        '§4.1, §5: a retired client is not authorized: 403',
      ).toBe(403);
    },
  );
});

test.describe('§4.2 DELETE /api/v1/capabilities/{deviceId}', () => {
  test('CAP-DELETE-204 DELETE of a device the client has deletes it: 204', req('CAP-DELETE-204'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    await register(client.api, [id]);
    expect((await client.api.deleteCapabilities(id)).status, '§4.2: DELETE of an existing device').toBe(204);
  });

  test(
    'CAP-DELETE-404 ERR-CAP-DELETE-404 DELETE of a deviceId the client never reported: 404',
    req('CAP-DELETE-404', 'ERR-CAP-DELETE-404'),
    async ({ device }) => {
      const client = await device();
      expect((await client.api.deleteCapabilities(client.deviceId())).status, '§4.2: no device with that deviceId for the client').toBe(
        404,
      );
    },
  );

  test(
    'CAP-DELETE-403 ERR-CAP-DELETE-403 DELETE from a client whose relationship is retired: 403',
    req('CAP-DELETE-403', 'ERR-CAP-DELETE-403'),
    async ({ device, hooks }) => {
      const { client, id } = await retiredClient(device, hooks);
      expect((await client.api.deleteCapabilities(id)).status, '§4.2, §5: a retired client is not authorized: 403').toBe(403);
    },
  );

  test(
    'CAP-DELETE-SCOPED-404 DELETE of a deviceId only another client registered: 404, and that device stays',
    req('CAP-DELETE-SCOPED-404'),
    async ({ device }) => {
      const owner = await device();
      const other = await device();
      const id = owner.deviceId();
      await register(owner.api, [id]);
      expect((await other.api.deleteCapabilities(id)).status, '§4.2: the caller has no device with that deviceId').toBe(404);
      expect((await owner.api.putCapabilities(id, capabilities(id))).status, "§4.2: the owner's device is still there (an update)").toBe(
        200,
      );
    },
  );
});

test.describe('§3 Lifecycle of a capabilities document', () => {
  test(
    'CAP-LIFE-CREATED PUT for a deviceId with no document creates it (201); the next PUT for it is an update (200)',
    req('CAP-LIFE-CREATED'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      expect((await client.api.putCapabilities(id, capabilities(id))).status, '§3: no document exists, so PUT creates one').toBe(201);
      expect(
        (await client.api.putCapabilities(id, capabilities(id, { memory: '32 Gi' }))).status,
        '§3: the next PUT after a create is an update',
      ).toBe(200);
    },
  );

  test(
    'CAP-LIFE-UPDATED PUT of an existing document answers 200 however often it is repeated',
    req('CAP-LIFE-UPDATED'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      await register(client.api, [id]);
      for (let n = 1; n <= 3; n++)
        expect((await client.api.putCapabilities(id, capabilities(id))).status, `§3: repeated update #${n} of the same document`).toBe(200);
    },
  );

  test(
    'CAP-LIFE-DELETED after DELETE (204) the device is gone: DELETE answers 404 and PUT creates it again (201)',
    req('CAP-LIFE-DELETED'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      await register(client.api, [id]);
      expect((await client.api.deleteCapabilities(id)).status, '§3: DELETE of an existing device').toBe(204);
      expect((await client.api.deleteCapabilities(id)).status, '§3, §4.2: the deleted device no longer exists').toBe(404);
      expect((await client.api.putCapabilities(id, capabilities(id))).status, '§3: no document exists, so PUT creates one').toBe(201);
    },
  );
});

test.describe('§2.1 DeviceCapabilities and §2.1.1 Properties: documents the WFM accepts', () => {
  const extension = { 'x-wfmck-probe-extensions': { firmware: '1.4.2', nested: { channel: ['a', 'b'] } } };

  test(
    'CAP-EXT-NOT-REJECTED a document with an unknown x-<name>-extensions member is not rejected: 201',
    req('CAP-EXT-NOT-REJECTED'),
    async ({ device }) => {
      expectAccepted(
        await putNew(await device(), (id) => capabilities(id, {}, extension)),
        '§2.1: a document is never rejected because of unknown extensions',
      );
    },
  );

  test(
    'CAP-EXT-IGNORED the same document with and without an unknown extension gets the same answer',
    req('CAP-EXT-IGNORED'),
    async ({ device }) => {
      const client = await device();
      // A valid and a semantically wrong document: an extension changes neither verdict.
      for (const over of [{}, { otelCollector: false }]) {
        const plain = await putNew(client, (id) => capabilities(id, over));
        const extended = await putNew(client, (id) => capabilities(id, over, extension));
        expect(extended, `§2.1: the WFM ignores unknown extensions (properties ${JSON.stringify(over)}: ${plain} without)`).toBe(plain);
      }
    },
  );

  test(
    'CAP-LABELS-CASE-SENSITIVE labels whose keys differ only in case are distinct and not rejected: 201',
    req('CAP-LABELS-CASE-SENSITIVE'),
    async ({ device }) => {
      const labels = { 'example.com/Zone': 'north', 'example.com/zone': 'south' };
      expectAccepted(await putNew(await device(), (id) => capabilities(id, {}, { labels })), '§2.1: label keys are case-sensitive');
    },
  );

  test('CPU-CORES-DECIMAL a cpus entry with 0.5 cores (half a core) is accepted: 201', req('CPU-CORES-DECIMAL'), async ({ device }) => {
    expectAccepted(
      await putNew(await device(), (id) => capabilities(id, { cpus: [{ cores: 0.5, architecture: 'arm64' }] })),
      '§2.1.1 CPU: cores are decimal units',
    );
  });

  test('CPU-ARCH-OPTIONAL a cpus entry without architecture is accepted: 201', req('CPU-ARCH-OPTIONAL'), async ({ device }) => {
    expectAccepted(
      await putNew(await device(), (id) => capabilities(id, { cpus: [{ cores: 2 }] })),
      '§2.1.1 CPU: architecture is optional',
    );
  });

  test(
    'PROPS-PERIPHERAL-OPTIONAL-FIELDS a peripheral with only its type is accepted: 201',
    req('PROPS-PERIPHERAL-OPTIONAL-FIELDS'),
    async ({ device }) => {
      expectAccepted(
        await putNew(await device(), (id) => capabilities(id, { peripherals: [{ type: 'gpu' }] })),
        '§2.1.1 Peripheral: manufacturer and model are optional',
      );
    },
  );

  test('PROPS-PERIPHERALS-EMPTY an empty peripherals array is accepted: 201', req('PROPS-PERIPHERALS-EMPTY'), async ({ device }) => {
    expectAccepted(
      await putNew(await device(), (id) => capabilities(id, { peripherals: [] })),
      '§2.1.1: peripherals may be an empty array',
    );
  });

  // Defaulting to custom happens inside the WFM; from outside only the absence of a rejection shows (catalog errata).
  test(
    'ENUM-DEFAULT-CUSTOM-RUNTIME a supportedRuntimes value no enum knows is not rejected (read as custom): 201',
    req('ENUM-DEFAULT-CUSTOM-RUNTIME'),
    async ({ device, profile }) => {
      const status = await putNew(await device(), (id) => capabilities(id, { supportedRuntimes: ['wasm-edge'] }));
      expect(
        acceptedUnknownEnum(profile.edition),
        `§2.1.1: an unknown runtime defaults to custom (labels present), got ${status}`,
      ).toContain(status);
    },
  );

  test(
    'ENUM-DEFAULT-CUSTOM-DEPLOYTYPE a supportedDeploymentTypes value no enum knows is not rejected (read as custom): 201',
    req('ENUM-DEFAULT-CUSTOM-DEPLOYTYPE'),
    async ({ device, profile }) => {
      const status = await putNew(await device(), (id) => capabilities(id, { supportedDeploymentTypes: ['nomad-job'] }));
      expect(
        acceptedUnknownEnum(profile.edition),
        `§2.1.1: an unknown deployment type defaults to custom (labels present), got ${status}`,
      ).toContain(status);
    },
  );
});

test.describe('P8 Capability quantities: memory and storage in both written forms', () => {
  test(
    'PROPS-QUANTITY-SPACED-ACCEPTED memory and storage written "<amount> <unit>" (interfaces.md) are accepted: 201',
    req('PROPS-QUANTITY-SPACED-ACCEPTED'),
    async ({ device }) => {
      expectAccepted(
        await putNew(await device(), (id) => capabilities(id, { memory: '512 Mi', storage: '2 Ti' })),
        'P8: the spaced form of §2.1.1',
      );
    },
  );

  test(
    'PROPS-QUANTITY-UNSPACED-ACCEPTED memory and storage written "<amount><unit>" (the standard) are accepted: 201',
    req('PROPS-QUANTITY-UNSPACED-ACCEPTED'),
    async ({ device }) => {
      expectAccepted(
        await putNew(await device(), (id) => capabilities(id, { memory: '512Mi', storage: '2Ti' })),
        "P8: the standard schema's form",
      );
    },
  );
});

/** PUTs `doc` for a fresh deviceId of `client` and returns the answer's status. */
async function putNew(client: SimulatedClient, doc: (id: string) => DeviceCapabilities): Promise<number> {
  const id = client.deviceId();
  return (await client.api.putCapabilities(id, doc(id))).status;
}

/** P10 errata: the miaf edition's closed enums make 422 legal too; the seed edition must accept. */
function acceptedUnknownEnum(edition: string): number[] {
  return edition === 'miaf' ? [...ACCEPTED, 422] : ACCEPTED;
}

/** The document is accepted: a creation answers 201, and a 200 is CAP-PUT-201's finding, not this check's. */
function expectAccepted(status: number, what: string): void {
  expect(ACCEPTED, `${what}: accepted (201), got ${status}`).toContain(status);
}

test.describe('P10 edition miaf: the capabilities paths and the closed rc.3 schema', () => {
  test(
    'MIAF-CAP-PATHS PUT creates (201) and updates (200), DELETE answers 204, and there is no POST (405 or 404)',
    req('MIAF-CAP-PATHS'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      expect((await client.api.putCapabilities(id, capabilities(id))).status, 'P10: PUT creates').toBe(201);
      expect((await client.api.putCapabilities(id, capabilities(id))).status, 'P10: PUT updates').toBe(200);
      const post = await client.api.raw({ method: 'POST', url: `/api/v1/capabilities/${id}`, json: capabilities(id) });
      // Errata of MIAF-CAP-PATHS: no POST is 405 (RFC 9110) or the 404 of a WFM that routes by method and path together.
      expect([404, 405], `P10: capabilities take PUT and DELETE only (no POST), got ${post.status}`).toContain(post.status);
      expect((await client.api.deleteCapabilities(id)).status, 'P10: DELETE answers 204').toBe(204);
    },
  );

  test(
    'MIAF-CAP-ROOT-CLOSED apiVersion, kind or an unknown key at the root is refused; an x-<name>-extensions object is accepted',
    req('MIAF-CAP-ROOT-CLOSED'),
    async ({ device }) => {
      const client = await device();
      for (const extra of [{ apiVersion: 'v1' }, { kind: 'DeviceCapabilities' }, { unknownRootKey: true }]) {
        const status = await putNew(client, (id) => ({ ...capabilities(id), ...extra }) as DeviceCapabilities);
        expect(
          INVALID_BODY_ANSWERS,
          `P10: the root is closed; ${Object.keys(extra)[0]} is refused with 400 or 422, got ${status}`,
        ).toContain(status);
      }
      expectAccepted(
        await putNew(client, (id) => ({ ...capabilities(id), 'x-acme-extensions': { rack: 7 } }) as DeviceCapabilities),
        'P10: x-<name>-extensions objects stay allowed',
      );
    },
  );

  test(
    'MIAF-CAP-PROPS-REQUIRED properties with only id, vendor, modelNumber and serialNumber is accepted: 201',
    req('MIAF-CAP-PROPS-REQUIRED'),
    async ({ device }) => {
      const status = await putNew(await device(), (id) => ({
        properties: { id, vendor: 'Acme', modelNumber: 'M-1', serialNumber: `SN-${id}` },
      }));
      expectAccepted(status, 'P10: nothing else is required');
    },
  );

  test(
    'MIAF-ENUMS-CLOSED a cpu architecture, peripheral type or interface type outside the rc.3 enums is refused (400 or 422)',
    req('MIAF-ENUMS-CLOSED'),
    async ({ device }) => {
      const client = await device();
      const outside: [string, (id: string) => DeviceCapabilities][] = [
        ['architecture riscv64', (id) => capabilities(id, { cpus: [{ architecture: 'riscv64' as never, cores: 4 }] })],
        ['peripheral type lidar', (id) => capabilities(id, { peripherals: [{ type: 'lidar' as never }] })],
        ['interface type zigbee', (id) => capabilities(id, { interfaces: [{ type: 'zigbee' as never }] } as never)],
      ];
      for (const [what, doc] of outside) {
        const status = await putNew(client, doc);
        expect(INVALID_BODY_ANSWERS, `P10: closed enums; ${what} is refused, got ${status}`).toContain(status);
      }
    },
  );
});
