// The I/O edge of the device machine: each Action run against the Device API or the registry, answered as a Result.
// Statuses are reported to the observer here; decisions stay in machine.ts.
import { parse } from 'yaml';
import { verifyDigest } from '../../spec/rules/desired-state.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import type { ApplicationDeployment, DeviceCapabilities, StateManifest } from '../../spec/types.ts';
import { TransportError, type Exchange, type HttpResponse } from '../transport/types.ts';
import { applyComposeComponent } from './compose-apply.ts';
import type { DeploymentSummary, Placement } from './deployments.ts';
import { slotOf, type Action, type MachineState, type Result } from './machine.ts';
import { statusReport } from './report.ts';
import type { DeviceEnvironment } from './driver.ts';
import type { DeviceDescription, Endpoint } from './types.ts';
import type { DeploymentStatusReport, StatusError } from '../../spec/types.ts';
import { isReservedGatewayCode } from '../../spec/rules/status-report.ts';
import { stringify as stringifyYaml } from 'yaml';

/** What an action needs of the device running it. */
export interface ActionContext {
  readonly desc: DeviceDescription;
  readonly env: DeviceEnvironment;
  readonly state: MachineState;
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
    ctx.env.observer?.({ type: 'transport-error', deviceId: ctx.desc.id, endpoint: ENDPOINT_OF[action.type], code: e.code, message: e.message, exchange: e.exchange });
    return { ok: false, transient: true, message: `${e.code}: ${e.message}` };
  }
}

async function run(ctx: ActionContext, action: Action): Promise<Result> {
  const { api, profile } = ctx.env;
  switch (action.type) {
    case 'fetch-root-ca': {
      const ca = await api.fetchRootCa();
      return answer(ctx, 'certificate', ca.response, ca.pem !== undefined ? undefined : ca.problem);
    }
    case 'onboard': {
      const { response, clientId } = await api.onboard(onboardingBody(ctx));
      const refused = answer(ctx, 'onboarding', response, clientId === undefined ? 'no clientId in the answer' : undefined);
      return refused.ok && clientId !== undefined ? { ok: true, kind: 'onboarded', clientId } : refused;
    }
    case 'put-capabilities': {
      const deviceId = ctx.deviceAt(action.index).id;
      // Client fault CAP-FIRST-EXCHANGE: the desired state is polled before the first capabilities.
      if (ctx.env.clientFaults?.has('CAP-FIRST-EXCHANGE') && action.index === 0 && ctx.state.capsSent < 0) await api.getDesiredState(ctx.state.clientId);
      // Client faults CAP-DEVICEID-GRAMMAR (a space in the path id) and API-JSON-REQUESTS (the document as YAML).
      // GW-SEETHRU-PATH-HIERARCHY: a device behind the gateway is PUT under <gateway>/devices/..., a level never registered.
      const pathId = ctx.env.clientFaults?.has('CAP-DEVICEID-GRAMMAR') ? `${deviceId} x`
        : action.index > 0 && ctx.env.clientFaults?.has('GW-SEETHRU-PATH-HIERARCHY') ? deviceId.replace('/', '/devices/') : deviceId;
      const doc = ctx.documentAt(action.index, action.revision);
      const put = answer(ctx, 'capabilities.put', await api.putCapabilities(pathId, ctx.env.clientFaults?.has('API-JSON-REQUESTS') ? stringifyYaml(doc) : doc));
      // Client fault GW-OPAQUE-CHILDREN-HIDDEN: an opaque gateway shows one of its children to the WFM too.
      const child = ctx.desc.kind === 'opaque-gateway' && action.index === 0 && ctx.env.clientFaults?.has('GW-OPAQUE-CHILDREN-HIDDEN') ? ctx.desc.children?.[0] : undefined;
      // Client fault GW-OPAQUE-ONE-DOCUMENT: an opaque gateway also registers its document under an alias.
      if (ctx.desc.kind === 'opaque-gateway' && action.index === 0 && ctx.env.clientFaults?.has('GW-OPAQUE-ONE-DOCUMENT')) await api.putCapabilities(`${deviceId}-hub`, { ...doc, properties: { ...doc.properties, id: `${deviceId}-hub` } });
      if (child) await api.putCapabilities(`${deviceId}/${child.id.split('/').at(-1)}`, { ...child.capabilities, properties: { ...child.capabilities.properties, id: `${deviceId}/${child.id.split('/').at(-1)}` } });
      return put;
    }
    case 'delete-child': {
      const { id } = ctx.deviceAt(action.index);
      // Client faults GW-SEETHRU-DELETE-CHILD (the DELETE names the last id segment) and CAP-DELETE-NO-BODY (it carries the document).
      const pathId = ctx.env.clientFaults?.has('GW-SEETHRU-DELETE-CHILD') ? id.split('/').at(-1)! : id;
      const body = ctx.env.clientFaults?.has('CAP-DELETE-NO-BODY') ? { body: ctx.documentAt(action.index, 0) } : {};
      return answer(ctx, 'capabilities.delete', await api.deleteCapabilities(pathId, body));
    }
    case 'poll':
      return polled(ctx, await api.getDesiredState(ctx.state.clientId, action.etag === undefined ? {} : { etag: action.etag }));
    case 'fetch-deployment': {
      // Client fault AMV-OLDER-REPORTS-OLDER: the revision it still runs is reported with the newer manifest's version.
      const slot = slotOf(ctx.state, action.deploymentId);
      const pending = slot?.adoption.fetched;
      if (slot && pending !== undefined && slot.adoption.held && ctx.env.clientFaults?.has('AMV-OLDER-REPORTS-OLDER')) {
        const report = statusReport(slot, profile.vendor);
        if (report) await api.postStatus(action.deploymentId, { ...report, adoptedManifestVersion: pending });
      }
      return fetchedDeployment(ctx, action, await api.getDeploymentYaml(action.url));
    }
    case 'apply-step':
      return applyStep(ctx, action);
    case 'report-status': {
      const slot = slotOf(ctx.state, action.deploymentId);
      const report = slot && faultyReport(ctx, statusReport(slot, profile.vendor));
      // Client fault STATUS-REPORT-WHILE-APPLYING: nothing is ever reported.
      if (!slot || !report || ctx.env.clientFaults?.has('STATUS-REPORT-WHILE-APPLYING')) return { ok: true, kind: 'done' };
      const result = answer(ctx, 'status', await api.postStatus(action.deploymentId, report));
      ctx.env.observer?.({ type: 'deployment', deviceId: report.deviceId ?? ctx.desc.id, deploymentId: action.deploymentId, state: report.status.state, adoptedManifestVersion: report.adoptedManifestVersion });
      return result;
    }
    case 'idle':
      return { ok: true, kind: 'done' };
  }
}

/** Emits the response event; a status outside the expected ones (or a `problem`) is a failure, transient for 5xx/429. */
function answer(ctx: ActionContext, endpoint: Endpoint, response: HttpResponse, problem?: string): Result {
  const expected = EXPECTED[endpoint].includes(response.status) && problem === undefined;
  const latencyMs = response.exchange.durationMs;
  ctx.env.observer?.({ type: 'response', deviceId: ctx.desc.id, endpoint, status: response.status, latencyMs, expected, ...(expected ? {} : { exchange: response.exchange }) });
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
  return { ok: true, kind: 'manifest', version: m.manifestVersion, deployments, ...(etag ? { etag } : {}) };
}

/** P4: the YAML's bytes hash to the manifest's digest BEFORE they are parsed; then the schema, then placement. */
function fetchedDeployment(ctx: ActionContext, action: Extract<Action, { type: 'fetch-deployment' }>, response: HttpResponse): Result {
  const result = answer(ctx, 'deployment', response);
  if (!result.ok) return result;
  if (!verifyDigest(response.body, action.digest)) {
    return { ok: false, transient: false, status: 200, message: `P4: deployment ${action.deploymentId} bytes do not hash to ${action.digest}; not parsed, not adopted` };
  }
  let doc: unknown;
  try {
    doc = parse(Buffer.from(response.body).toString('utf8'));
  } catch (e) {
    return { ok: false, transient: false, status: 200, message: `P4: deployment YAML does not parse: ${(e as Error).message}` };
  }
  const checked = validate('ApplicationDeployment', doc, { vendor: ctx.env.profile.vendor });
  if (!checked.ok) return { ok: false, transient: false, status: 200, message: `P4 ApplicationDeployment: ${formatSchemaErrors(checked.errors)}` };
  const d = doc as ApplicationDeployment;
  if (d.metadata.annotations.id !== action.deploymentId) {
    return { ok: false, transient: false, status: 200, message: `P4: metadata.annotations.id ${d.metadata.annotations.id} is not deployment ${action.deploymentId}` };
  }
  const summary: DeploymentSummary = {
    name: d.metadata.name,
    type: d.spec.deploymentProfile.type,
    components: d.spec.deploymentProfile.components.map(({ name, properties: p }) => ({
      name,
      properties: { repository: p.repository, revision: p.revision, ...(p.wait !== undefined ? { wait: p.wait } : {}), ...(p.timeout !== undefined ? { timeout: p.timeout } : {}) },
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
    return { ok: true, kind: 'applied', state: 'failed', error: { code: 'DEPLOYMENT_TYPE_UNSUPPORTED', source: component.name, message: `§2.1.1: deployment type "${slot.type}" is not one this device processes` } };
  }
  const registry = ctx.env.registry;
  if (!registry) {
    return { ok: true, kind: 'applied', state: 'failed', error: { code: 'REGISTRY_UNCONFIGURED', source: component.name, message: 'the simulator was given no registry client' } };
  }
  const outcome = await applyComposeComponent(component, {
    registry,
    vendor: ctx.env.profile.vendor,
    faults: host.faults,
    ...(ctx.env.clientFaults && { clientFaults: ctx.env.clientFaults }),
    ...(ctx.env.timeScale !== undefined ? { timeScale: ctx.env.timeScale } : {}),
    ...(ctx.env.sleep ? { sleep: ctx.env.sleep } : {}),
    ...(ctx.env.observer ? { onResponse: (exchange: Exchange, expected: boolean) => registryEvent(ctx, exchange, expected) } : {}),
  });
  return { ok: true, kind: 'applied', ...outcome };
}

function registryEvent(ctx: ActionContext, exchange: Exchange, expected: boolean): void {
  const status = exchange.status ?? 0;
  ctx.env.observer?.({ type: 'response', deviceId: ctx.desc.id, endpoint: 'registry', status, latencyMs: exchange.durationMs, expected, ...(expected ? {} : { exchange }) });
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

/** Deployments a faulty client (AMV-NO-RESERVED-VALUE) has reported once: the fault bends only the first report. */
const firstReported = new Set<string>();
/** The first version a faulty client (AMV-ADVANCES-ON-APPLY) reported for each deployment. */
const firstVersions = new Map<string, number>();

/** Client faults STATUS-COMPONENTS-ONE-PER (an extra component) and STATUS-PRECEDENCE (overall state installed regardless). */
function faultyReport(ctx: ActionContext, report: DeploymentStatusReport | undefined): DeploymentStatusReport | undefined {
  const faults = ctx.env.clientFaults;
  if (!report || !faults) return report;
  let out = report;
  // AMV-NO-RESERVED-VALUE: the first report of a deployment claims version 0.
  if (faults.has('AMV-NO-RESERVED-VALUE') && !firstReported.has(out.deploymentId)) {
    firstReported.add(out.deploymentId);
    out = { ...out, adoptedManifestVersion: 0 };
  }
  // STATUS-STATE-VALUES: the overall state is written "done" once installed.
  if (faults.has('STATUS-STATE-VALUES') && out.status.state === 'installed') out = { ...out, status: { ...out.status, state: 'done' as never } };
  // STATUS-DEPLOYMENTID-REQUIRED / STATUS-STATUS-REQUIRED: the report leaves deploymentId / status out.
  if (faults.has('STATUS-DEPLOYMENTID-REQUIRED')) out = omitKey(out, 'deploymentId');
  if (faults.has('STATUS-STATUS-REQUIRED')) out = omitKey(out, 'status');
  // STATUS-DEVICEID-CHILD: a report for a device behind the gateway names only its last segment.
  if (faults.has('STATUS-DEVICEID-CHILD') && out.deviceId?.includes('/')) out = { ...out, deviceId: out.deviceId.split('/').at(-1)! };
  // AMV-INDEPENDENT-OF-OUTCOME: a failed deployment reports the version before the one it failed to apply.
  if (faults.has('AMV-INDEPENDENT-OF-OUTCOME') && out.status.state === 'failed') out = { ...out, adoptedManifestVersion: Math.max(1, out.adoptedManifestVersion - 1) };
  // STATUS-ERROR-SOURCE-COMPONENT: component errors name the device as their source.
  if (faults.has('STATUS-ERROR-SOURCE-COMPONENT')) out = { ...out, components: out.components.map((c) => (c.error ? { ...c, error: { ...c.error, source: ctx.desc.id } } : c)) };
  // STATUS-ERROR-SOURCE-DEPLOYMENT: status.error names the failed component, not the deployment, as its source.
  if (faults.has('STATUS-ERROR-SOURCE-DEPLOYMENT') && out.status.error) out = { ...out, status: { ...out.status, error: { ...out.status.error, source: out.components.find((c) => c.error)?.name ?? 'component' } } };
  // STATUS-ERROR-FIELDS: status.error keeps its code and source but loses its message.
  if (faults.has('STATUS-ERROR-FIELDS') && out.status.error) out = { ...out, status: { ...out.status, error: { ...out.status.error, message: '' } } };
  // STATUS-COMPONENT-NAME / STATUS-COMPONENT-STATE-VALUES: components in upper case / an installed component "done".
  if (faults.has('STATUS-COMPONENT-NAME')) out = { ...out, components: out.components.map((c) => ({ ...c, name: c.name.toUpperCase() })) };
  if (faults.has('STATUS-COMPONENT-STATE-VALUES')) out = { ...out, components: out.components.map((c) => (c.state === 'installed' ? { ...c, state: 'done' as never } : c)) };
  // STATUS-PATH-DEPLOYMENTID: the body's deploymentId in upper case (the path keeps the real one).
  if (faults.has('STATUS-PATH-DEPLOYMENTID') && out.deploymentId) out = { ...out, deploymentId: out.deploymentId.toUpperCase() };
  // AMV-ADVANCES-ON-APPLY: the version of the first revision adopted, forever.
  if (faults.has('AMV-ADVANCES-ON-APPLY')) {
    const first = firstVersions.get(out.deploymentId) ?? out.adoptedManifestVersion;
    firstVersions.set(out.deploymentId, first);
    out = { ...out, adoptedManifestVersion: first };
  }
  // AMV-RESYNC: after losing its local state it reports the versions it held before (kept apart from what it lost).
  const stale = faults.has('AMV-RESYNC') ? ctx.env.staleVersions?.get(out.deploymentId) : undefined;
  if (stale !== undefined) out = { ...out, adoptedManifestVersion: stale };
  // AMV-PRESENT / AMV-FIRST-INSTALL: no adoptedManifestVersion / the version after the one adopted.
  if (faults.has('AMV-PRESENT')) out = omitKey(out, 'adoptedManifestVersion');
  if (faults.has('AMV-FIRST-INSTALL')) out = { ...out, adoptedManifestVersion: out.adoptedManifestVersion + 1 };
  // STATUS-RESERVED-101 / STATUS-RESERVED-SOURCE: 101 becomes an implementation code / a reserved code names the child.
  if (faults.has('STATUS-RESERVED-101')) out = mapErrors(out, (e) => (e.code === '101' ? { ...e, code: 'UNKNOWN_CHILD' } : e));
  if (faults.has('STATUS-RESERVED-SOURCE')) out = mapErrors(out, (e) => (isReservedGatewayCode(e.code) && out.deviceId ? { ...e, source: out.deviceId } : e));
  if (faults.has('STATUS-COMPONENTS-ONE-PER')) out = { ...out, components: [...out.components, { name: 'sidecar', state: out.components[0]?.state ?? 'installed' }] };
  // STATUS-PRECEDENCE-REMOVED: removed as soon as removal begins, its components still removing.
  if (faults.has('STATUS-PRECEDENCE-REMOVED') && out.components.some((c) => c.state === 'removing')) out = { ...out, status: { ...out.status, state: 'removed' } };
  // Claims the deployment installed from the first report on, whatever its components say.
  if (faults.has('STATUS-PRECEDENCE')) out = { ...out, status: { ...(out.status as { state: string }), state: 'installed' } as DeploymentStatusReport['status'] };
  return out;
}

/** The OnboardingRequest, or for the client faults of §2.3 one that breaks a single field rule. */
function onboardingBody(ctx: ActionContext): string | Record<string, unknown> {
  const faults = ctx.env.clientFaults;
  const certificate = ctx.env.certificate;
  if (faults?.has('ONB-KIND')) return { apiVersion: 'v1', kind: 'Onboarding', certificate };
  if (faults?.has('ONB-APIVERSION-REQUIRED')) return { kind: 'OnboardingRequest', certificate };
  // The DER as hex: neither base64 of DER nor of PEM.
  if (faults?.has('ONB-CERT-BASE64')) return { apiVersion: 'v1', kind: 'OnboardingRequest', certificate: Buffer.from(certificate, 'base64').toString('hex') };
  return certificate;
}

function mapErrors(report: DeploymentStatusReport, f: (e: StatusError) => StatusError): DeploymentStatusReport {
  return {
    ...report,
    status: report.status.error ? { ...report.status, error: f(report.status.error) } : report.status,
    components: report.components.map((c) => (c.error ? { ...c, error: f(c.error) } : c)),
  };
}

function omitKey(report: DeploymentStatusReport, key: 'deploymentId' | 'status' | 'adoptedManifestVersion'): DeploymentStatusReport {
  const { [key]: _dropped, ...rest } = report;
  return rest as DeploymentStatusReport;
}
