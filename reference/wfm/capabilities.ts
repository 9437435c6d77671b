// §4.1, §4.2, §2.1, §2.2: PUT and DELETE capabilities, one device per request, gateways before their children.
import { ancestorsOf, isDescendantOf } from '../../spec/rules/device-id.ts';
import {
  extensionKeys,
  idMatchesPath,
  normalizeDeploymentTypes,
  normalizeRuntimes,
  semanticFindings,
} from '../../spec/rules/capabilities.ts';
import { validate } from '../../spec/schemas/index.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import { authenticate } from './auth.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, json, parseJsonObject, type Reply } from './http.ts';
import type { Client } from './store.ts';

export async function putCapabilities(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const d = ctx.decisions;
  const client = await authenticate(ctx, req);
  const deviceId = req.params['deviceId']!;
  const body = parseJsonObject(req.body);
  const checked = enumsTolerated(ctx, validate('DeviceCapabilities', body, { vendor: ctx.profile.vendor }));
  if (!checked.ok) throw new WfmError(400, 'malformed DeviceCapabilities', checked.errors);
  // P10: the rc.3 root is closed and its enums are fixed; a document only the open seed schema takes is a semantic error.
  if (ctx.profile.capabilitiesRoot === 'closed' && d.closesCapabilitiesRoot) {
    const closed = enumsTolerated(ctx, validate('MiafDeviceCapabilities', body));
    if (!closed.ok)
      throw new WfmError(
        422,
        `DeviceCapabilities outside the closed rc.3 schema: ${closed.errors[0]!.path} ${closed.errors[0]!.message}`,
        closed.errors,
      );
  }
  const doc = body as unknown as DeviceCapabilities;
  // P10 requires the identity fields only; each client has a deviceId scope of its own (§4.1).
  if (d.requiresCpus && doc.properties.cpus === undefined) throw new WfmError(422, 'properties.cpus is required');
  if (!d.scopesDeviceIdsPerClient && [...ctx.store.clients.values()].some((c) => c !== client && c.devices.has(deviceId))) {
    throw new WfmError(403, `device ${deviceId} belongs to another client`);
  }
  const findings = [...semanticFindings(doc), ...idMatchesPath(doc, deviceId)];
  const excused = d.extensionsExcuseSemanticErrors && extensionKeys(doc).length > 0;
  if (findings.length && !excused) throw new WfmError(422, `semantic error in DeviceCapabilities: ${findings[0]!.message}`, findings);
  const refusal = d.capabilitiesRefusal(doc);
  if (refusal) throw refusal;
  const missing = missingGateway(ctx, client, deviceId);
  if (missing !== undefined)
    throw new WfmError(
      404,
      `no gateway found for ${deviceId}: ${missing} has not reported its capabilities`,
      undefined,
      {},
      'gateway-not-found',
    );
  const stored = client.devices.get(deviceId);
  const next = normalized(doc);
  client.devices.set(deviceId, next);
  return json(d.answersCreated(client, deviceId, stored, next) ? 201 : 200, {});
}

/** §4.2. Deleting a gateway deletes the devices behind it, so no child is left without its gateway. */
export async function deleteCapabilities(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const deviceId = req.params['deviceId']!;
  const owner = client.devices.has(deviceId) ? client : ctx.decisions.foreignOwner(ctx.store, deviceId);
  if (!owner) throw new WfmError(404, `no device ${deviceId} for this client`, undefined, {}, 'device-not-found');
  if (!ctx.decisions.deleteRemoves(owner, deviceId)) return { status: 204 };
  for (const id of [...owner.devices.keys()]) {
    if (id === deviceId || isDescendantOf(id, deviceId)) owner.devices.delete(id);
  }
  return { status: 204 };
}

/** §2.2 rule 3: the first gateway above the device without a document; none is registered implicitly. */
function missingGateway(ctx: WfmContext, client: Client, deviceId: string): string | undefined {
  const ancestors = ancestorsOf(deviceId);
  const missing = ancestors.filter((id) => !ctx.decisions.gatewayFound(client, id));
  return missing.length === 0 ? undefined : ctx.decisions.missingGateway(client, ancestors, missing);
}

/** §2.1.1: unknown runtimes and deployment types are stored as `custom`. */
function normalized(doc: DeviceCapabilities): DeviceCapabilities {
  const properties = { ...doc.properties };
  if (properties.supportedRuntimes) properties.supportedRuntimes = normalizeRuntimes(properties.supportedRuntimes);
  if (properties.supportedDeploymentTypes)
    properties.supportedDeploymentTypes = normalizeDeploymentTypes(properties.supportedDeploymentTypes);
  return { ...doc, properties };
}

/** Schema errors about enum values, unless enum values are checked (any architecture or type is then taken). */
function enumsTolerated(ctx: WfmContext, checked: ReturnType<typeof validate>): ReturnType<typeof validate> {
  if (checked.ok || ctx.decisions.checksEnumValues) return checked;
  const errors = checked.errors.filter((e) => !/must be one of|allowed values/.test(e.message));
  return errors.length ? { ...checked, errors } : { ok: true };
}
