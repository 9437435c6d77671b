// P10 edition miaf schemas: the closed capabilities root with its fixed enums, and RFC 9457 problem details.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import { SUPPORTED_DEPLOYMENT_TYPES, SUPPORTED_RUNTIMES } from '../../spec/types.ts';
import { validCapabilities } from '../../simulators/data/arbitraries.ts';
import { fcOptions } from '../support/fc.ts';

const fcOpts = fcOptions(200);
const identity = { id: 'gw-01', vendor: 'v', modelNumber: 'm', serialNumber: 's' };
const ok = (name: 'MiafDeviceCapabilities' | 'ProblemDetails', doc: unknown) => {
  const r = validate(name, doc);
  assert.equal(r.ok, true, r.ok ? '' : formatSchemaErrors(r.errors));
};
const errorsOf = (name: 'MiafDeviceCapabilities' | 'ProblemDetails', doc: unknown) => {
  const r = validate(name, doc);
  return r.ok ? [] : formatSchemaErrors(r.errors).split('\n');
};

test('P10 capabilities: properties needs only id, vendor, modelNumber and serialNumber; labels and x-<name>-extensions are allowed', () => {
  ok('MiafDeviceCapabilities', { properties: identity });
  ok('MiafDeviceCapabilities', {
    properties: { ...identity, supportedRuntimes: ['oci'], supportedDeploymentTypes: ['helm', 'compose', 'custom'] },
    labels: { site: 'a', n: [1, 2] },
    'x-acme-extensions': { a: 1 },
  });
  assert.deepEqual(errorsOf('MiafDeviceCapabilities', { properties: { id: 'x', vendor: 'v', modelNumber: 'm' } }), [
    '/properties/serialNumber: is required',
  ]);
});

test('P10 capabilities: the root is closed, so apiVersion, kind and a badly named extension are rejected', () => {
  assert.deepEqual(errorsOf('MiafDeviceCapabilities', { apiVersion: 'v1', kind: 'DeviceCapabilities', properties: identity }), [
    '/apiVersion: is not allowed',
    '/kind: is not allowed',
  ]);
  for (const key of ['x-Acme-extensions', 'x--extensions', 'x-acme', 'acme-extensions', 'x-1acme-extensions']) {
    assert.deepEqual(errorsOf('MiafDeviceCapabilities', { properties: identity, [key]: {} }), [`/${key}: is not allowed`], key);
  }
  assert.deepEqual(errorsOf('MiafDeviceCapabilities', { properties: identity, 'x-acme-extensions': 'flat' }), [
    '/x-acme-extensions: must be object',
  ]);
  assert.equal(
    validate('DeviceCapabilities', { apiVersion: 'v1', kind: 'DeviceCapabilities', properties: identity }).ok,
    true,
    'the seed root stays open',
  );
});

test('P10 capabilities: runtimes and deployment types are closed enums (the seed edition defaults unknown ones to custom)', () => {
  assert.deepEqual(errorsOf('MiafDeviceCapabilities', { properties: { ...identity, supportedRuntimes: ['wasm'] } }), [
    '/properties/supportedRuntimes/0: must be one of "oci", "custom"',
  ]);
  assert.deepEqual(errorsOf('MiafDeviceCapabilities', { properties: { ...identity, supportedDeploymentTypes: ['helm.v3'] } }), [
    '/properties/supportedDeploymentTypes/0: must be one of "helm", "compose", "custom"',
  ]);
  assert.deepEqual(errorsOf('MiafDeviceCapabilities', { properties: { ...identity, cpus: [{ cores: 2, architecture: 'riscv64' }] } }), [
    '/properties/cpus/0/architecture: must be one of "amd64", "arm64", "arm"',
  ]);
  assert.equal(validate('DeviceCapabilities', { properties: { ...identity, supportedRuntimes: ['wasm'] } }).ok, true);
});

test('property: every valid capabilities document with known enum values is valid in miaf; adding apiVersion makes it invalid', () => {
  fc.assert(
    fc.property(validCapabilities({ unknownEnumValues: false }), (doc) => {
      ok('MiafDeviceCapabilities', doc);
      assert.deepEqual(errorsOf('MiafDeviceCapabilities', { ...doc, apiVersion: 'v1' }), ['/apiVersion: is not allowed']);
    }),
    fcOpts,
  );
});

test('property: a runtime or deployment type outside the enum is refused in miaf', () => {
  const known = new Set<string>([...SUPPORTED_RUNTIMES, ...SUPPORTED_DEPLOYMENT_TYPES]);
  const unknown = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !known.has(s));
  fc.assert(
    fc.property(unknown, fc.constantFrom('supportedRuntimes', 'supportedDeploymentTypes'), (value, field) => {
      assert.equal(validate('MiafDeviceCapabilities', { properties: { ...identity, [field]: [value] } }).ok, false);
    }),
    fcOpts,
  );
});

const problem = {
  type: 'https://docs.platform.org/specification/platform-management-interface/problem-types#device-not-found',
  title: 'Device not found',
  status: 404,
};

test('RFC 9457 problem details: type, title and status are required; detail, instance and P10 extensions are typed', () => {
  ok('ProblemDetails', problem);
  ok('ProblemDetails', {
    type: 'about:blank',
    title: 'Too Many Requests',
    status: 429,
    detail: 'slow down',
    instance: '/api/v1/deployments',
    retryable: true,
    retryAfterSeconds: 30,
    backoffStrategy: 'exponential',
  });
  ok('ProblemDetails', { ...problem, status: 422, errors: [{ field: '/properties/id', message: 'bad' }], 'x-trace': 'abc', balance: 30 });
  assert.deepEqual(errorsOf('ProblemDetails', { title: 't' }), ['/type: is required', '/status: is required']);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, status: '404' }), ['/status: must be integer']);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, status: 99 }), ['/status: must be >= 100']);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, backoffStrategy: 'linear' }), [
    '/backoffStrategy: must be one of "none", "fixed", "exponential"',
  ]);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, retryable: 'yes' }), ['/retryable: must be boolean']);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, retryAfterSeconds: -1 }), ['/retryAfterSeconds: must be >= 0']);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, errors: [{ field: 'a' }] }), ['/errors/0/message: is required']);
  assert.deepEqual(errorsOf('ProblemDetails', { ...problem, type: 'not a uri' }), ['/type: must match format "uri-reference"']);
});

test('property: any extension member is allowed beside the required three (RFC 9457 §3.2)', () => {
  const reserved = new Set([
    'type',
    'title',
    'status',
    'detail',
    'instance',
    'retryable',
    'retryAfterSeconds',
    'backoffStrategy',
    'errors',
  ]);
  const extensions = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !reserved.has(k) && k !== '__proto__'),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 4 },
  );
  fc.assert(
    fc.property(extensions, fc.integer({ min: 100, max: 599 }), (ext, status) => ok('ProblemDetails', { ...ext, ...problem, status })),
    fcOpts,
  );
});
