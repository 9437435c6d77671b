// The I/O edge of the device machine: each Action run against the Device API or the registry, answered as a Result.
// Statuses are reported to the observer here; decisions stay in machine.ts.
import { parse } from 'yaml';
import { verifyDigest } from '../../spec/rules/desired-state.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import type { ApplicationDeployment, DeviceCapabilities, StateManifest } from '../../spec/types.ts';
import { TransportError, type Exchange, type HttpResponse } from '../transport/types.ts';
import { applyComposeComponent } from './compose-apply.ts';
import { yamlFromBundle } from './bundle-fallback.ts';
import type { ClientDecisions } from './decisions/index.ts';
import type { DeploymentSummary, Placement } from './deployment-steps.ts';
import { slotOf, type Action, type MachineState, type Result } from './machine.ts';
import { statusReport } from './report.ts';
import type { DeviceEnvironment } from './driver.ts';
import type { DeviceDescription, Endpoint } from './types.ts';

/** What an action needs of the device running it. */
export interface ActionContext {
  readonly desc: DeviceDescription;
  readonly env: DeviceEnvironment;
  readonly state: MachineState;
  /** What this client decides (the clean client's, or a faulty one's). */
  readonly decisions: ClientDecisions;
  deviceAt(index: number): DeviceDescription;
  documentAt(index: number, revision: number): DeviceCapabilities;
  place(target: string | undefined): Placement;
}

const EXPECTED: Record<Endpoint, readonly number[]> = {
  certificate: [200],
  onboarding: [201],
  'capabilities.put': [200, 201],
  'capabilities.delete': [204, 404],
  'desired-state': [200, 304],
  deployment: [200],
  bundle: [200],
  status: [200, 201],
  registry: [200],
};

export async function perform(ctx: ActionContext, action: Action): Promise<Result> {
  try {
    return await run(ctx, action);
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    ctx.env.observer?.({
      type: 'transport-error',
      deviceId: ctx.desc.id,
      endpoint: ENDPOINT_OF[action.type],
      code: e.code,
      message: e.message,
      exchange: e.exchange,
    });
    return { ok: false, transient: true, message: `${e.code}: ${e.message}` };
  }
}

async function run(ctx: ActionContext, action: Action): Promise<Result> {
  const { api, profile } = ctx.env;
  const decide = ctx.decisions;
  switch (action.type) {
    case 'fetch-root-ca': {
      const ca = await api.fetchRootCa();
      return answer(ctx, 'certificate', ca.response, ca.pem !== undefined ? undefined : ca.problem);
    }
    case 'onboard': {
      const { response, clientId } = await api.onboard(decide.onboardingBody(ctx.env.certificate));
      const refused = answer(ctx, 'onboarding', response, clientId === undefined ? 'no clientId in the answer' : undefined);
      return refused.ok && clientId !== undefined ? { ok: true, kind: 'onboarded', clientId } : refused;
    }
    case 'put-capabilities': {
      const deviceId = ctx.deviceAt(action.index).id;
      if (!decide.sendsCapabilitiesFirst && action.index === 0 && ctx.state.capsSent < 0) await api.getDesiredState(ctx.state.clientId);
      const doc = ctx.documentAt(action.index, action.revision);
      const put = answer(
        ctx,
        'capabilities.put',
        await api.putCapabilities(decide.capabilitiesPathId(deviceId, action.index), decide.capabilitiesBody(doc)),
        undefined,
        deviceId,
      );
      // §2.2: an opaque gateway registers its one document, and none of what is behind it.
      const also =
        ctx.desc.kind === 'opaque-gateway' && action.index === 0 ? decide.alsoRegisters(deviceId, doc, ctx.desc.children ?? []) : [];
      for (const other of also) await api.putCapabilities(other.deviceId, other.doc);
      return put;
    }
    case 'delete-child': {
      const { id } = ctx.deviceAt(action.index);
      const body = decide.deleteCarriesDocument ? { body: ctx.documentAt(action.index, 0) } : {};
      return answer(ctx, 'capabilities.delete', await api.deleteCapabilities(decide.deletePathId(id), body));
    }
    case 'poll': {
      const etag = decide.manifestRevalidationEtag(ctx.desc.id, action.etag);
      const result = polled(ctx, await api.getDesiredState(ctx.state.clientId, etag === undefined ? {} : { etag }));
      // A newer manifest that leaves a deployment as it was makes a faulty client report it again, with a version no
      // manifest had (the new one's, plus one).
      if (
        result.ok &&
        result.kind === 'manifest' &&
        result.version > ctx.state.manifestVersion &&
        decide.reportsUnchangedDeploymentsAgain
      ) {
        for (const slot of ctx.state.deployments.filter(
          (d) => d.stage === 'settled' && result.deployments.some((e) => e.deploymentId === d.deploymentId && e.digest === d.digest),
        )) {
          const report = statusReport(slot, profile.vendor);
          if (report) await api.postStatus(slot.deploymentId, { ...report, adoptedManifestVersion: result.version + 1 });
        }
      }
      return result;
    }
    case 'fetch-deployment': {
      // A faulty client reports the revision it still runs with the newer manifest's version.
      const slot = slotOf(ctx.state, action.deploymentId);
      const pending = slot?.adoption.fetched;
      if (slot && pending !== undefined && slot.adoption.held && decide.reportsHeldRevisionOnFetch) {
        const report = statusReport(slot, profile.vendor);
        if (report) await api.postStatus(action.deploymentId, { ...report, adoptedManifestVersion: pending });
      }
      const yaml = await api.getDeploymentYaml(action.url);
      // P4: the YAML's URL answers 404 when it cannot serve that digest; the manifest's bundle holds every YAML too.
      if (yaml.status === 404 && action.bundle) {
        answer(ctx, 'deployment', yaml);
        const got = await yamlFromBundle(api, action, decide, (res) => answer(ctx, 'bundle', res).ok);
        return got.ok ? deploymentFromBytes(ctx, action, got.bytes) : { ok: false, transient: false, status: 200, message: got.message };
      }
      return fetchedDeployment(ctx, action, yaml);
    }
    case 'apply-step':
      return applyStep(ctx, action);
    case 'report-status': {
      const slot = slotOf(ctx.state, action.deploymentId);
      const made = slot && statusReport(slot, profile.vendor);
      const report = made && decide.statusReport(made, ctx.desc.id);
      if (!slot || !report || !decide.reportsStatus) return { ok: true, kind: 'done' };
      const result = answer(ctx, 'status', await api.postStatus(action.deploymentId, report));
      ctx.env.observer?.({
        type: 'deployment',
        deviceId: report.deviceId ?? ctx.desc.id,
        deploymentId: action.deploymentId,
        state: report.status.state,
        adoptedManifestVersion: report.adoptedManifestVersion,
      });
      return result;
    }
    case 'idle':
      return { ok: true, kind: 'done' };
  }
}

/** Emits the response event; a status outside the expected ones (or a `problem`) is a failure, transient for 5xx/429. */
function answer(ctx: ActionContext, endpoint: Endpoint, response: HttpResponse, problem?: string, subject?: string): Result {
  const expected = EXPECTED[endpoint].includes(response.status) && problem === undefined;
  const latencyMs = response.durationMs ?? response.exchange.durationMs;
  ctx.env.observer?.({
    type: 'response',
    deviceId: ctx.desc.id,
    endpoint,
    status: response.status,
    latencyMs,
    expected,
    ...(expected ? {} : { exchange: response.exchange }),
    ...(subject !== undefined && { subject }),
  });
  if (expected) return { ok: true, kind: 'done' };
  const transient = response.status >= 500 || response.status === 429;
  return { ok: false, transient, status: response.status, message: problem ?? `HTTP ${response.status}${errorOf(response)}` };
}

/** P6: a JSON `{error}` body is shown when present; no shape is required. */
function errorOf(response: HttpResponse): string {
  try {
    const error = (response.json() as { error?: unknown } | null)?.error;
    return typeof error === 'string' ? `: ${error}` : '';
  } catch {
    return '';
  }
}

function polled(ctx: ActionContext, response: HttpResponse): Result {
  const result = answer(ctx, 'desired-state', response);
  if (!result.ok || response.status === 304) return result.ok ? { ok: true, kind: 'not-modified' } : result;
  let manifest: unknown;
  try {
    manifest = response.json();
  } catch {
    return { ok: false, transient: false, status: 200, message: 'P4: the state manifest is not JSON' };
  }
  const checked = validate('StateManifest', manifest, { vendor: ctx.env.profile.vendor });
  if (!checked.ok) return { ok: false, transient: false, status: 200, message: `P4 state manifest: ${formatSchemaErrors(checked.errors)}` };
  const m = manifest as StateManifest;
  const deployments = m.deployments.map(({ deploymentId, digest, url }) => ({ deploymentId, digest, url }));
  const etag = response.headers['etag'];
  ctx.decisions.manifestEtagReceived(ctx.desc.id, etag);
  const bundle = m.bundle ? { bundle: { digest: m.bundle.digest, url: m.bundle.url } } : {};
  const force = ctx.decisions.adoptsAnyManifestVersion ? { force: true as const } : {};
  return { ok: true, kind: 'manifest', version: m.manifestVersion, deployments, ...(etag ? { etag } : {}), ...bundle, ...force };
}

/** P4: the YAML's bytes hash to the manifest's digest BEFORE they are parsed; then the schema, then placement. */
function fetchedDeployment(ctx: ActionContext, action: Extract<Action, { type: 'fetch-deployment' }>, response: HttpResponse): Result {
  const result = answer(ctx, 'deployment', response);
  if (!result.ok) return result;
  if (!verifyDigest(response.body, action.digest) && ctx.decisions.verifiesDeploymentDigest) {
    return {
      ok: false,
      transient: false,
      status: 200,
      message: `P4: deployment ${action.deploymentId} bytes do not hash to ${action.digest}; not parsed, not adopted`,
    };
  }
  return deploymentFromBytes(ctx, action, response.body);
}

/** A digest-verified YAML: parsed, checked against the schema and its deployment, then placed. */
function deploymentFromBytes(ctx: ActionContext, action: Extract<Action, { type: 'fetch-deployment' }>, bytes: Uint8Array): Result {
  let doc: unknown;
  try {
    doc = parse(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    return { ok: false, transient: false, status: 200, message: `P4: deployment YAML does not parse: ${(e as Error).message}` };
  }
  const checked = validate('ApplicationDeployment', doc, { vendor: ctx.env.profile.vendor });
  if (!checked.ok)
    return { ok: false, transient: false, status: 200, message: `P4 ApplicationDeployment: ${formatSchemaErrors(checked.errors)}` };
  const d = doc as ApplicationDeployment;
  if (d.metadata.annotations.id !== action.deploymentId) {
    return {
      ok: false,
      transient: false,
      status: 200,
      message: `P4: metadata.annotations.id ${d.metadata.annotations.id} is not deployment ${action.deploymentId}`,
    };
  }
  const summary: DeploymentSummary = {
    name: d.metadata.name,
    type: d.spec.deploymentProfile.type,
    components: d.spec.deploymentProfile.components.map(({ name, properties: p }) => ({
      name,
      properties: {
        repository: p.repository,
        revision: p.revision,
        ...(p.wait !== undefined ? { wait: p.wait } : {}),
        ...(p.timeout !== undefined ? { timeout: p.timeout } : {}),
      },
    })),
    placement: ctx.place(d.metadata.deviceId),
  };
  return { ok: true, kind: 'deployment', summary };
}

/** `begin` and `remove` are bookkeeping; `run` applies one component: compose pulls and runs, helm is a quick success. */
async function applyStep(ctx: ActionContext, action: Extract<Action, { type: 'apply-step' }>): Promise<Result> {
  const slot = slotOf(ctx.state, action.deploymentId);
  if (action.step !== 'run' || !slot) return { ok: true, kind: 'done' };
  const host = ctx.deviceAt(Math.max(0, slot.host));
  const component = slot.components[action.component]!.ref;
  if (slot.type !== 'compose') {
    if (/^helm(\.v3)?$/.test(slot.type)) return { ok: true, kind: 'applied', state: 'installed' };
    return {
      ok: true,
      kind: 'applied',
      state: 'failed',
      error: {
        code: 'DEPLOYMENT_TYPE_UNSUPPORTED',
        source: component.name,
        message: `§2.1.1: deployment type "${slot.type}" is not one this device processes`,
      },
    };
  }
  const registry = ctx.env.registry;
  if (!registry) {
    return {
      ok: true,
      kind: 'applied',
      state: 'failed',
      error: { code: 'REGISTRY_UNCONFIGURED', source: component.name, message: 'the simulator was given no registry client' },
    };
  }
  const outcome = await applyComposeComponent(component, {
    registry,
    vendor: ctx.env.profile.vendor,
    faults: host.faults,
    decisions: ctx.decisions,
    ...(ctx.env.timeScale !== undefined ? { timeScale: ctx.env.timeScale } : {}),
    ...(ctx.env.sleep ? { sleep: ctx.env.sleep } : {}),
    ...(ctx.env.observer ? { onResponse: (exchange: Exchange, expected: boolean) => registryEvent(ctx, exchange, expected) } : {}),
  });
  return { ok: true, kind: 'applied', ...outcome };
}

function registryEvent(ctx: ActionContext, exchange: Exchange, expected: boolean): void {
  const status = exchange.status ?? 0;
  ctx.env.observer?.({
    type: 'response',
    deviceId: ctx.desc.id,
    endpoint: 'registry',
    status,
    latencyMs: exchange.durationMs,
    expected,
    ...(expected ? {} : { exchange }),
  });
}

/** The endpoint a transport failure is counted under. */
const ENDPOINT_OF: Record<Action['type'], Endpoint> = {
  'fetch-root-ca': 'certificate',
  onboard: 'onboarding',
  'put-capabilities': 'capabilities.put',
  'delete-child': 'capabilities.delete',
  poll: 'desired-state',
  'fetch-deployment': 'deployment',
  'apply-step': 'registry',
  'report-status': 'status',
  idle: 'status',
};
