// §4.1, §4.2, §2.1, §2.2: PUT and DELETE capabilities, one device per request, gateways before their children.
import { isDeepStrictEqual } from 'node:util';
import { ancestorsOf, isDescendantOf, parentOf } from '../../spec/rules/device-id.ts';
import { classifyDocument, extensionKeys, idMatchesPath, normalizeDeploymentTypes, normalizeRuntimes, semanticFindings } from '../../spec/rules/capabilities.ts';
import { validate } from '../../spec/schemas/index.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import { authenticate } from './auth.ts';
import { faultyRefusal } from './capabilities-faults.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, json, parseJsonObject, type Reply } from './http.ts';
import type { Client } from './store.ts';

export async function putCapabilities(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const deviceId = req.params['deviceId']!;
  const body = parseJsonObject(req.body);
  const checked = enumsTolerated(ctx, validate('DeviceCapabilities', body, { vendor: ctx.profile.vendor }));
  if (!checked.ok) throw new WfmError(400, 'malformed DeviceCapabilities', checked.errors);
  // P10: the rc.3 root is closed and its enums are fixed; a document only the open seed schema takes is a semantic error.
  // MIAF-CAP-ROOT-CLOSED: the open root is kept (apiVersion, kind and unknown keys accepted).
  if (ctx.profile.capabilitiesRoot === 'closed' && !ctx.faults.has('MIAF-CAP-ROOT-CLOSED')) {
    const closed = enumsTolerated(ctx, validate('MiafDeviceCapabilities', body));
    if (!closed.ok) throw new WfmError(422, `DeviceCapabilities outside the closed rc.3 schema: ${closed.errors[0]!.path} ${closed.errors[0]!.message}`, closed.errors);
  }
  const doc = body as unknown as DeviceCapabilities;
  // MIAF-CAP-PROPS-REQUIRED: cpus is demanded although P10 requires only the identity fields.
  if (ctx.faults.has('MIAF-CAP-PROPS-REQUIRED') && doc.properties.cpus === undefined) throw new WfmError(422, 'properties.cpus is required');
  // MIAF-SCOPE-PER-CLIENT: a deviceId belongs to whichever client reported it first, across clients.
  if (ctx.faults.has('MIAF-SCOPE-PER-CLIENT') && [...ctx.store.clients.values()].some((c) => c !== client && c.devices.has(deviceId))) {
    throw new WfmError(403, `device ${deviceId} belongs to another client`);
  }
  const findings = [...semanticFindings(doc), ...idMatchesPath(doc, deviceId)];
  // CAP-EXT-IGNORED: an unknown extension wrongly excuses a semantic error.
  const excused = ctx.faults.has('CAP-EXT-IGNORED') && extensionKeys(doc).length > 0;
  if (findings.length && !excused) throw new WfmError(422, `semantic error in DeviceCapabilities: ${findings[0]!.message}`, findings);
  const refusal = faultyRefusal(ctx.faults, doc);
  if (refusal) throw refusal;
  const missing = missingGateway(ctx, client, deviceId);
  if (missing !== undefined) throw new WfmError(404, `no gateway found for ${deviceId}: ${missing} has not reported its capabilities`, undefined, {}, 'gateway-not-found');
  const stored = client.devices.get(deviceId);
  const next = normalized(doc);
  client.devices.set(deviceId, next);
  return json(answersCreated(ctx, client, deviceId, stored, next) ? 201 : 200, {});
}

/** §4.2. Deleting a gateway deletes the devices behind it, so no child is left without its gateway. */
export async function deleteCapabilities(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const deviceId = req.params['deviceId']!;
  const owner = client.devices.has(deviceId) ? client : foreignOwner(ctx, deviceId);
  if (!owner) throw new WfmError(404, `no device ${deviceId} for this client`, undefined, {}, 'device-not-found');
  // GW-ORDER-DELETED-GATEWAY-404: the deleted id is remembered and still taken for a gateway.
  if (ctx.faults.has('GW-ORDER-DELETED-GATEWAY-404')) deletedIds(owner).add(deviceId);
  // CAP-LIFE-DELETED: answers 204 but keeps the documents.
  if (ctx.faults.has('CAP-LIFE-DELETED')) return { status: 204 };
  for (const id of [...owner.devices.keys()]) {
    if (id === deviceId || isDescendantOf(id, deviceId)) owner.devices.delete(id);
  }
  return { status: 204 };
}

/** §2.2 rule 3: the first gateway above the device without a document; none is registered implicitly. */
function missingGateway(ctx: WfmContext, client: Client, deviceId: string): string | undefined {
  const ancestors = ancestorsOf(deviceId);
  const missing = ancestors.filter((id) => !gatewayFound(ctx, client, id));
  if (missing.length === 0) return undefined;
  // GW-ORDER-CHILD-FIRST-404: a child is accepted when none of its gateways has reported yet.
  if (ctx.faults.has('GW-ORDER-CHILD-FIRST-404') && missing.length === ancestors.length) return undefined;
  // CAP-ONE-DEVICE-PER-REQUEST: missing intermediates below a known root gateway are registered implicitly.
  if (ctx.faults.has('CAP-ONE-DEVICE-PER-REQUEST') && missing[0] !== ancestors[0]) {
    for (const id of missing) client.devices.set(id, { properties: { id, vendor: '', modelNumber: '', serialNumber: '' } });
    return undefined;
  }
  return missing[0];
}

function gatewayFound(ctx: WfmContext, client: Client, id: string): boolean {
  const doc = client.devices.get(id);
  // GW-SEETHRU-HOSTING-OPTIONAL: a gateway that hosts no workloads is not taken for a gateway.
  if (doc && ctx.faults.has('GW-SEETHRU-HOSTING-OPTIONAL')) return classifyDocument(doc.properties) !== 'identity-only';
  if (doc) return true;
  if (ctx.faults.has('GW-ORDER-DELETED-GATEWAY-404') && deletedIds(client).has(id)) return true;
  // GW-SEETHRU-INFER-HIERARCHY: a gateway matched by character prefix at the same depth, not by whole segments.
  const depth = id.split('/').length;
  return ctx.faults.has('GW-SEETHRU-INFER-HIERARCHY') && [...client.devices.keys()].some((k) => k.split('/').length === depth && id.startsWith(k));
}

/** §3: 201 when no document existed, else 200. */
function answersCreated(ctx: WfmContext, client: Client, deviceId: string, stored: DeviceCapabilities | undefined, next: DeviceCapabilities): boolean {
  // CAP-LIFE-CREATED: a new document settles only at its first update, which is answered 201 again.
  if (ctx.faults.has('CAP-LIFE-CREATED') && (stored === undefined || unsettled.has(stored))) {
    if (stored === undefined) unsettled.add(next);
    return true;
  }
  // CAP-LIFE-UPDATED: a PUT that changes nothing is answered as a create.
  if (ctx.faults.has('CAP-LIFE-UPDATED') && stored !== undefined && isDeepStrictEqual(stored, next)) return true;
  // GW-SEETHRU-CHILD-INDIVIDUAL: children share one view, so a new sibling is answered as an update.
  const parent = parentOf(deviceId);
  if (ctx.faults.has('GW-SEETHRU-CHILD-INDIVIDUAL') && parent !== undefined && [...client.devices.keys()].some((k) => k !== deviceId && parentOf(k) === parent)) return false;
  return stored === undefined;
}

/** CAP-DELETE-SCOPED-404: the faulty WFM looks the device up across every client, not only the caller's. */
function foreignOwner(ctx: WfmContext, deviceId: string): Client | undefined {
  if (!ctx.faults.has('CAP-DELETE-SCOPED-404')) return undefined;
  return [...ctx.store.clients.values()].find((c) => c.devices.has(deviceId));
}

const unsettled = new WeakSet<DeviceCapabilities>();
const deleted = new WeakMap<Client, Set<string>>();

function deletedIds(client: Client): Set<string> {
  let ids = deleted.get(client);
  if (!ids) deleted.set(client, (ids = new Set()));
  return ids;
}

/** §2.1.1: unknown runtimes and deployment types are stored as `custom`. */
function normalized(doc: DeviceCapabilities): DeviceCapabilities {
  const properties = { ...doc.properties };
  if (properties.supportedRuntimes) properties.supportedRuntimes = normalizeRuntimes(properties.supportedRuntimes);
  if (properties.supportedDeploymentTypes) properties.supportedDeploymentTypes = normalizeDeploymentTypes(properties.supportedDeploymentTypes);
  return { ...doc, properties };
}

/** MIAF-ENUMS-CLOSED: schema errors about enum values are overlooked (any architecture or type is taken). */
function enumsTolerated(ctx: WfmContext, checked: ReturnType<typeof validate>): ReturnType<typeof validate> {
  if (checked.ok || !ctx.faults.has('MIAF-ENUMS-CLOSED')) return checked;
  const errors = checked.errors.filter((e) => !/must be one of|allowed values/.test(e.message));
  return errors.length ? { ...checked, errors } : { ok: true };
}
