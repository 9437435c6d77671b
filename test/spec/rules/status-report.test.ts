import { fcOptions } from '../../support/fc.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ComponentStatus, DeploymentStatusReport, StatusError } from '../../../spec/types.ts';
import {
  componentsFindings,
  deviceIdFindings,
  errorShapeFindings,
  errorSourceFindings,
  isNoError,
  isReservedGatewayCode,
  RESERVED_GATEWAY_CODES,
} from '../../../spec/rules/status-report.ts';
import { childId } from '../../../spec/rules/device-id.ts';

const fcOpts = fcOptions(200);
const NO_ERROR: StatusError = { code: '', source: '', message: '' };

const report = (components: ComponentStatus[], over: Partial<DeploymentStatusReport> = {}): DeploymentStatusReport => ({
  deploymentId: 'a3e2f5dc-912e-494f-8395-52cf3769bc06',
  adoptedManifestVersion: 3,
  status: { state: 'installing', error: NO_ERROR },
  components,
  ...over,
});
const ok = (name: string): ComponentStatus => ({ name, state: 'installed', error: NO_ERROR });
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);

test('§2.4 reserved gateway codes 101, 102 and 103', () => {
  assert.deepEqual(
    { ...RESERVED_GATEWAY_CODES },
    { '101': 'Unknown child device ID', '102': 'Child device unreachable', '103': 'Autonomous placement not supported' },
  );
  assert.equal(isReservedGatewayCode('102'), true);
  assert.equal(isReservedGatewayCode('104'), false);
  assert.equal(isReservedGatewayCode('toString'), false);
});

test('P7: no error is an absent error or three empty strings', () => {
  assert.equal(isNoError(undefined), true);
  assert.equal(isNoError(null), true);
  assert.equal(isNoError(NO_ERROR), true);
  assert.equal(isNoError({ code: '', source: '', message: 'x' }), false);
});

test('P7: an error with some but not all fields empty is refused', () => {
  const r = report([{ name: 'web', state: 'failed', error: { code: 'E1', source: '', message: 'pull failed' } }]);
  assert.deepEqual(rules(errorShapeFindings(r)), ['error-partially-empty']);
  assert.deepEqual(errorShapeFindings(report([ok('web')])), []);
});

test('§2.4, §8: exactly one entry per component of the deployment manifest', () => {
  assert.deepEqual(componentsFindings(report([ok('db'), ok('web')]), ['web', 'db']), []);
  assert.deepEqual(rules(componentsFindings(report([ok('web')]), ['web', 'db'])), ['component-missing']);
  assert.deepEqual(rules(componentsFindings(report([ok('web'), ok('db'), ok('cache')]), ['web', 'db'])), ['component-extra']);
  const dup = componentsFindings(report([ok('web'), ok('db'), ok('web')]), ['web', 'db']);
  assert.deepEqual(dup, [{ rule: 'component-duplicate', message: '§2.4: component "web" has more than one entry', path: '/components/2' }]);
});

test('§2.4 source rules 2 and 3: the deployment name in status.error, the component name in components[].error', () => {
  const good = report([{ name: 'web', state: 'failed', error: { code: 'E42', source: 'web', message: 'image pull failed' } }], {
    status: { state: 'failed', error: { code: 'E7', source: 'shop-app', message: 'install failed' } },
  });
  assert.deepEqual(errorSourceFindings(good, { deploymentName: 'shop-app' }), []);
  const swapped = report([{ name: 'web', state: 'failed', error: { code: 'E42', source: 'shop-app', message: 'x' } }], {
    status: { state: 'failed', error: { code: 'E7', source: 'web', message: 'y' } },
  });
  const fs = errorSourceFindings(swapped, { deploymentName: 'shop-app' });
  assert.deepEqual(
    fs.map((f) => [f.rule, f.path]),
    [
      ['error-source', '/status/error/source'],
      ['error-source', '/components/0/error/source'],
    ],
  );
});

test('§2.4 source rule 1 and reserved codes: the gateway id with full hierarchy', () => {
  const gw = { deploymentName: 'shop-app', gatewayId: 'site-1/gw-2' };
  const unknownChild = (source: string) =>
    report([ok('web')], { status: { state: 'failed', error: { code: '101', source, message: 'Unknown child device ID' } } });
  assert.deepEqual(errorSourceFindings(unknownChild('site-1/gw-2'), gw), []);
  const [f] = errorSourceFindings(unknownChild('gw-2'), gw);
  assert.equal(f?.rule, 'reserved-code-source');
  assert.match(f!.message, /reserved code 101 .*"site-1\/gw-2"/);
  assert.deepEqual(rules(errorSourceFindings(unknownChild('site-1/gw-2'), { deploymentName: 'shop-app' })), ['reserved-code-source']);
});

test('§2.4 rule 4: a code 101 whose source is the component name is an implementation code, not a reserved one', () => {
  const r = report([{ name: 'web', state: 'failed', error: { code: '101', source: 'web', message: 'app-specific' } }]);
  assert.deepEqual(errorSourceFindings(r, { deploymentName: 'shop-app' }), []);
  assert.deepEqual(errorSourceFindings(r, { deploymentName: 'shop-app', gatewayId: 'gw' }), []);
});

test('§2.4 deviceId: required, with full hierarchy, when reporting on behalf of a child', () => {
  const base = report([ok('web')]);
  assert.deepEqual(deviceIdFindings(base, { reportingDeviceId: 'dev-1', targetDeviceId: 'dev-1' }), []);
  assert.deepEqual(rules(deviceIdFindings(base, { reportingDeviceId: 'gw', targetDeviceId: 'gw/cam' })), ['device-id-required-for-child']);
  assert.deepEqual(deviceIdFindings({ ...base, deviceId: 'gw/cam' }, { reportingDeviceId: 'gw', targetDeviceId: 'gw/cam' }), []);
  const [partial] = deviceIdFindings({ ...base, deviceId: 'cam' }, { reportingDeviceId: 'gw', targetDeviceId: 'gw/cam' });
  assert.equal(partial?.rule, 'device-id-mismatch');
  assert.match(partial!.message, /not the full hierarchy/);
  assert.deepEqual(rules(deviceIdFindings({ ...base, deviceId: 'gw//cam' }, {})), ['device-id-syntax']);
  assert.deepEqual(rules(deviceIdFindings({ ...base, deviceId: 'other/cam' }, { reportingDeviceId: 'gw' })), [
    'device-id-outside-reporter',
  ]);
});

test('P4: a target ending in "/*" lets the gateway choose the child, and the report names it', () => {
  const base = report([ok('web')]);
  const ctx = { reportingDeviceId: 'gw', targetDeviceId: 'gw/*' };
  assert.deepEqual(rules(deviceIdFindings(base, ctx)), ['device-id-required-for-child']);
  assert.deepEqual(deviceIdFindings({ ...base, deviceId: 'gw/cam-7' }, ctx), []);
  assert.deepEqual(deviceIdFindings({ ...base, deviceId: 'gw' }, ctx), [], 'the gateway itself, e.g. with code 103');
  assert.deepEqual(rules(deviceIdFindings({ ...base, deviceId: 'other/cam' }, ctx)), ['device-id-mismatch']);
});

const nameArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
const namesArb = fc.uniqueArray(nameArb, { minLength: 1, maxLength: 6 });

test('property: any ordering of exactly the manifest components is clean; each defect gives exactly its finding', () => {
  fc.assert(
    fc.property(
      namesArb.chain((ns) => fc.tuple(fc.constant(ns), fc.shuffledSubarray(ns, { minLength: ns.length }), fc.nat())),
      ([names, order, pick]) => {
        const victim = names[pick % names.length]!;
        assert.deepEqual(componentsFindings(report(order.map(ok)), names), []);
        assert.deepEqual(rules(componentsFindings(report(order.filter((n) => n !== victim).map(ok)), names)), ['component-missing']);
        assert.deepEqual(rules(componentsFindings(report([...order, victim].map(ok)), names)), ['component-duplicate']);
        assert.deepEqual(rules(componentsFindings(report([...order, `${victim}-x!`].map(ok)), names)), ['component-extra']);
      },
    ),
    fcOpts,
  );
});

test('property: errors with the right sources are clean; a wrong source gives one finding per error', () => {
  const codeArb = fc.oneof(fc.constantFrom('101', '102', '103'), fc.stringMatching(/^E[0-9]{1,3}$/));
  fc.assert(
    fc.property(namesArb, fc.array(codeArb, { minLength: 7, maxLength: 7 }), fc.boolean(), (names, codes, viaGateway) => {
      const ctx = viaGateway ? { deploymentName: 'dep', gatewayId: 'gw/sub' } : { deploymentName: 'dep' };
      const sourceFor = (own: string) => (viaGateway ? 'gw/sub' : own);
      const err = (code: string, source: string): StatusError => ({ code, source, message: 'm' });
      const right = report(
        names.map((n, i) => ({ name: n, state: 'failed', error: err(codes[i]!, sourceFor(n)) })),
        { status: { state: 'failed', error: err(codes[6]!, sourceFor('dep')) } },
      );
      assert.deepEqual(errorSourceFindings(right, ctx), []);
      const wrong = report(
        names.map((n, i) => ({ name: n, state: 'failed', error: err(codes[i]!, `${n}?`) })),
        { status: { state: 'failed', error: err(codes[6]!, 'nope?') } },
      );
      assert.equal(errorSourceFindings(wrong, ctx).length, names.length + 1);
    }),
    fcOpts,
  );
});

test('property: empty errors are never judged for their source', () => {
  fc.assert(
    fc.property(namesArb, (names) => {
      assert.deepEqual(errorSourceFindings(report(names.map(ok)), { deploymentName: 'dep' }), []);
    }),
    fcOpts,
  );
});

test('property: a child report with the full-hierarchy deviceId is clean; the bare child id or no id is not', () => {
  const segArb = fc.stringMatching(/^[A-Za-z0-9_~-]{1,6}$/);
  fc.assert(
    fc.property(fc.array(segArb, { minLength: 1, maxLength: 3 }), segArb, (gwSegments, local) => {
      const gateway = gwSegments.join('/');
      const target = childId(gateway, local);
      const ctx = { reportingDeviceId: gateway, targetDeviceId: target };
      const base = report([ok('web')]);
      assert.deepEqual(deviceIdFindings({ ...base, deviceId: target }, ctx), []);
      assert.deepEqual(rules(deviceIdFindings({ ...base, deviceId: local }, ctx)), ['device-id-mismatch']);
      assert.deepEqual(rules(deviceIdFindings(base, ctx)), ['device-id-required-for-child']);
    }),
    fcOpts,
  );
});
