// Property tests: generated valid documents validate; any schema-derived mutation of one is refused at its field.
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CPU_ARCHITECTURES,
  DEPLOYMENT_STATES,
  INTERFACE_TYPES,
  PERIPHERAL_TYPES,
  SUPPORTED_DEPLOYMENT_TYPES,
  SUPPORTED_RUNTIMES,
} from '../../spec/types.ts';
import { formatSchemaErrors, schemaOf, validate, type SchemaName } from '../../spec/schemas/index.ts';
import { schemaMutations } from '../../spec/schemas/mutations.ts';

const replay = {
  seed: process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED),
  path: process.env.WFMCK_PATH,
  numRuns: 200,
};

const text = fc.string({ maxLength: 16 });
const number = fc.double({ noNaN: true, noDefaultInfinity: true });
const deviceId = fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,10}$/), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const quantity = fc
  .tuple(fc.nat(1 << 20), fc.constantFrom(' ', ''), fc.constantFrom('Ki', 'Mi', 'Gi', 'Ti'))
  .map(([amount, space, unit]) => `${amount}${space}${unit}`);
const atLeastOne = <T>(known: readonly T[]) => fc.array(fc.oneof(fc.constantFrom(...known), text), { minLength: 1, maxLength: 3 });

const identity = fc.record({ id: deviceId, vendor: text, modelNumber: text, serialNumber: text });
const hostingFields = fc.record({
  cpus: fc.array(
    fc.record(
      { cores: fc.double({ min: 0, minExcluded: true, max: 256, noNaN: true }), architecture: fc.constantFrom(...CPU_ARCHITECTURES) },
      { requiredKeys: ['cores'] },
    ),
    { minLength: 1, maxLength: 4 },
  ),
  memory: quantity,
  storage: quantity,
  peripherals: fc.array(
    fc.record({ type: fc.constantFrom(...PERIPHERAL_TYPES), manufacturer: text, model: text }, { requiredKeys: ['type'] }),
  ),
  interfaces: fc.array(fc.record({ type: fc.constantFrom(...INTERFACE_TYPES) })),
  otelCollector: fc.boolean(),
  supportedRuntimes: atLeastOne(SUPPORTED_RUNTIMES),
  supportedDeploymentTypes: atLeastOne(SUPPORTED_DEPLOYMENT_TYPES),
});
const labelValue = fc.oneof(text, number, fc.boolean(), fc.array(text), fc.array(number));
const capabilities = fc
  .record(
    {
      properties: fc.oneof(
        identity,
        fc.tuple(identity, hostingFields).map(([id, hosting]) => ({ ...id, ...hosting })),
      ),
      labels: fc.dictionary(text, labelValue, { maxKeys: 5 }),
      extensions: fc.dictionary(
        fc.stringMatching(/^x-[a-z][a-z0-9-]{0,8}-extensions$/),
        fc.dictionary(text, fc.jsonValue({ maxDepth: 2 })),
        { maxKeys: 2 },
      ),
    },
    { requiredKeys: ['properties'] },
  )
  .map(({ extensions, ...doc }) => ({ ...doc, ...extensions }));

const error = fc.record({ code: text, source: text, message: text });
const state = fc.constantFrom(...DEPLOYMENT_STATES);
const statusReport = fc.record(
  {
    deploymentId: fc.uuid(),
    deviceId,
    adoptedManifestVersion: fc.nat(),
    status: fc.record({ state, error }, { requiredKeys: ['state'] }),
    components: fc.array(fc.record({ name: text, state, error }, { requiredKeys: ['name', 'state'] }), { maxLength: 4 }),
  },
  { requiredKeys: ['deploymentId', 'adoptedManifestVersion', 'status', 'components'] },
);

const GENERATED: [SchemaName, fc.Arbitrary<unknown>][] = [
  ['DeviceCapabilities', capabilities],
  ['DeploymentStatusReport', statusReport],
];

for (const [name, arbitrary] of GENERATED) {
  test(`${name}: every generated valid document validates`, () => {
    fc.assert(
      fc.property(arbitrary, (doc) => {
        const result = validate(name, doc);
        assert.ok(result.ok, result.ok ? '' : formatSchemaErrors(result.errors));
      }),
      replay,
    );
  });

  test(`${name}: deleting a required field or retyping a value always makes it invalid at that field`, () => {
    const mutated = fc.tuple(arbitrary, fc.nat()).map(([doc, pick]) => {
      const mutations = schemaMutations(schemaOf(name), doc);
      return mutations[pick % mutations.length]!;
    });
    fc.assert(
      fc.property(mutated, (m) => {
        const result = validate(name, m.document);
        assert.equal(result.ok, false, `${m.kind} ${m.path} was accepted`);
        if (!result.ok)
          assert.ok(
            result.errors.some((e) => e.path === m.path),
            formatSchemaErrors(result.errors),
          );
      }),
      replay,
    );
  });
}
