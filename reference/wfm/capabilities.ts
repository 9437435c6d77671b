// §4.1, §4.2, §2.1, §2.2: PUT and DELETE capabilities, one device per request, gateways before their children.
import { ancestorsOf, isDescendantOf } from '../../spec/rules/device-id.ts';
import { idMatchesPath, normalizeDeploymentTypes, normalizeRuntimes, semanticFindings } from '../../spec/rules/capabilities.ts';
import { validate } from '../../spec/schemas/index.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import { authenticate } from './auth.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, json, parseJsonObject, type Reply } from './http.ts';

export async function putCapabilities(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const deviceId = req.params['deviceId']!;
  const body = parseJsonObject(req.body);
  const checked = validate('DeviceCapabilities', body, { vendor: ctx.profile.vendor });
  if (!checked.ok) throw new WfmError(400, 'malformed DeviceCapabilities', checked.errors);
  const doc = body as unknown as DeviceCapabilities;
  const findings = [...semanticFindings(doc), ...idMatchesPath(doc, deviceId)];
  if (findings.length) throw new WfmError(422, `semantic error in DeviceCapabilities: ${findings[0]!.message}`, findings);
  // §2.2 rule 3: every gateway above the device must already be registered; none is registered implicitly.
  const missing = ancestorsOf(deviceId).find((id) => !client.devices.has(id));
  if (missing !== undefined) throw new WfmError(404, `no gateway found for ${deviceId}: ${missing} has not reported its capabilities`);
  const created = !client.devices.has(deviceId);
  client.devices.set(deviceId, normalized(doc));
  return json(created ? 201 : 200, {});
}

/** §4.2. Deleting a gateway deletes the devices behind it, so no child is left without its gateway. */
export async function deleteCapabilities(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const deviceId = req.params['deviceId']!;
  if (!client.devices.has(deviceId)) throw new WfmError(404, `no device ${deviceId} for this client`);
  for (const id of [...client.devices.keys()]) {
    if (id === deviceId || isDescendantOf(id, deviceId)) client.devices.delete(id);
  }
  return { status: 204 };
}

/** §2.1.1: unknown runtimes and deployment types are stored as `custom`. */
function normalized(doc: DeviceCapabilities): DeviceCapabilities {
  const properties = { ...doc.properties };
  if (properties.supportedRuntimes) properties.supportedRuntimes = normalizeRuntimes(properties.supportedRuntimes);
  if (properties.supportedDeploymentTypes) properties.supportedDeploymentTypes = normalizeDeploymentTypes(properties.supportedDeploymentTypes);
  return { ...doc, properties };
}
