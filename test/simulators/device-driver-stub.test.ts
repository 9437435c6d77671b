// The driver's I/O edge against a stub Device API: what the reference WFM never serves (helm deployments, YAML
// whose bytes miss their digest, invalid YAML) and transport failures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { resolveProfile } from '../../spec/profile.ts';
import type { DeviceApiClient } from '../../simulators/device-api.ts';
import { createDevice } from '../../simulators/device/driver.ts';
import type { DeviceEvent } from '../../simulators/device/types.ts';
import { TransportError, type Exchange, type HttpResponse } from '../../simulators/transport/types.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';
import { describe } from './device-env.ts';

const DEPLOYMENT_ID = '6f1c2b4a-5d6e-4b2d-9a5e-0b6f9c1e7d1a';

function exchange(method: string, url: string): Exchange {
  return { id: 'x', method, url, requestHeaders: {}, startedAt: new Date(0).toISOString(), durationMs: 1, attempt: 1 };
}

function response(status: number, body: string | object = '', headers: Record<string, string> = {}): HttpResponse {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return {
    status,
    headers,
    body: bytes,
    text: () => bytes.toString(),
    json: () => JSON.parse(bytes.toString()),
    exchange: exchange('GET', 'https://wfm.test/'),
  };
}

function deploymentYaml(type: string, deviceId = 'dev-1'): string {
  return stringify({
    apiVersion: 'application.platform.org/v1alpha1',
    kind: 'ApplicationDeployment',
    metadata: { name: 'app-1', deviceId, annotations: { id: DEPLOYMENT_ID } },
    spec: {
      deploymentProfile: {
        type,
        components: [{ name: 'chart', properties: { repository: 'oci://registry.test/acme/chart', revision: '1.0.0' } }],
      },
    },
  });
}

/** A stub WFM serving one deployment whose YAML is `yaml`, announced with `digest`. */
function stub(yaml: string, digest = digestOf(Buffer.from(yaml)), failPolls = 0) {
  const reports: DeploymentStatusReport[] = [];
  let polls = 0;
  const api = {
    fetchRootCa: async () => ({ response: response(200), pem: '-----BEGIN CERTIFICATE-----' }),
    onboard: async () => ({ response: response(201), clientId: 'client-1' }),
    putCapabilities: async () => response(201),
    getDesiredState: async () => {
      if (++polls <= failPolls) throw new TransportError('WFMCK_E_CONNECTION', 'connection refused', exchange('GET', 'https://wfm.test/'));
      return response(
        200,
        { manifestVersion: 7, bundle: null, deployments: [{ deploymentId: DEPLOYMENT_ID, digest, url: `/d/${DEPLOYMENT_ID}/${digest}` }] },
        { etag: '"m7"' },
      );
    },
    getDeploymentYaml: async () => response(200, yaml),
    postStatus: async (_id: string, report: DeploymentStatusReport) => {
      reports.push(report);
      return response(201);
    },
  };
  const events: DeviceEvent[] = [];
  const device = createDevice(describe('plain', 'dev-1'), {
    api: api as unknown as DeviceApiClient,
    profile: resolveProfile(),
    certificate: 'AAAA',
    observer: (e) => events.push(e),
  });
  return { device, reports, events };
}

test('a helm deployment is simulated as a quick success', async () => {
  const { device, reports } = stub(deploymentYaml('helm.v3'));
  await device.start();
  await device.tick();
  assert.deepEqual(
    reports.map((r) => r.status.state),
    ['pending', 'installing', 'installed'],
  );
  assert.ok(reports.every((r) => r.adoptedManifestVersion === 7));
});

test('a deployment type the device does not process fails with a clear code', async () => {
  const { device, reports } = stub(deploymentYaml('custom'));
  await device.start();
  await device.tick();
  assert.equal(reports.at(-1)!.components[0]!.error!.code, 'DEPLOYMENT_TYPE_UNSUPPORTED');
});

test('P4: YAML whose bytes miss the manifest digest is neither parsed nor adopted, so nothing is reported', async () => {
  const { device, reports, events } = stub(deploymentYaml('helm'), `sha256:${'0'.repeat(64)}`);
  await device.start();
  await device.tick();
  assert.deepEqual(reports, []);
  assert.match((device as unknown as { lastError: string }).lastError, /do not hash to sha256:0{64}; not parsed, not adopted/);
  assert.equal(events.filter((e) => e.type === 'deployment').length, 0);
});

test('P4: YAML that is not an ApplicationDeployment is not adopted', async () => {
  const { device, reports } = stub('kind: Something\n');
  await device.start();
  await device.tick();
  assert.deepEqual(reports, []);
  assert.match((device as unknown as { lastError: string }).lastError, /P4 ApplicationDeployment/);
});

test('a transport failure is an event, ends the tick, and the next tick retries', async () => {
  const { device, reports, events } = stub(deploymentYaml('helm'), undefined, 1);
  await device.start();
  await device.tick();
  assert.equal(device.phase, 'reporting');
  assert.deepEqual(
    events.filter((e) => e.type === 'transport-error').map((e) => (e as { code: string }).code),
    ['WFMCK_E_CONNECTION'],
  );
  assert.equal(reports.length, 0);
  await device.tick();
  assert.equal(reports.at(-1)!.status.state, 'installed');
});
