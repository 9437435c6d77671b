// What the reference WFM decides about capabilities documents (§2.1, §2.2, §3, §4.1, §4.2, P10): a faulty variant
// replaces single decisions (reference/faults/capabilities.ts, gateways.ts, miaf.ts).
import type { DeviceCapabilities } from '../../../spec/types.ts';
import type { WfmError } from '../http.ts';
import type { Client, WfmStore } from '../store.ts';

export interface CapabilitiesDecisions {
  /** P10: the closed rc.3 root is enforced where the profile closes it (apiVersion, kind and unknown keys refused). */
  closesCapabilitiesRoot: boolean;
  /** P10: a value outside a closed enum (cpu architecture, peripheral or interface type) is a schema error. */
  checksEnumValues: boolean;
  /** properties.cpus is demanded, although P10 requires only the identity fields. */
  requiresCpus: boolean;
  /** §4.1: a deviceId is in the scope of the client that sends it; another client's device of that id is no conflict. */
  scopesDeviceIdsPerClient: boolean;
  /** §2.1: an unknown x-<name>-extensions member excuses a semantic error of the document. */
  extensionsExcuseSemanticErrors: boolean;
  /** A refusal of a document §2.1 accepts (undefined: none): the WFM's own misreading of the schema. */
  capabilitiesRefusal(doc: DeviceCapabilities): WfmError | undefined;
  /** §2.2 rule 3: `id` is found as a gateway of the client. */
  gatewayFound(client: Client, id: string): boolean;
  /**
   * §2.2 rule 3: the gateway a PUT is refused for (404), given the device's ancestors (top first) and those of them
   * not found (never empty); undefined takes the device.
   */
  missingGateway(client: Client, ancestors: readonly string[], missing: readonly string[]): string | undefined;
  /** §3: a PUT is answered 201 (the document is created) rather than 200 (updated). */
  answersCreated(client: Client, deviceId: string, stored: DeviceCapabilities | undefined, next: DeviceCapabilities): boolean;
  /** §4.2: a DELETE (always answered 204) removes the device's documents, and those of the devices behind it. */
  deleteRemoves(owner: Client, deviceId: string): boolean;
  /** §4.2: whose device a DELETE finds when the caller has none of that id (undefined: 404, the caller's scope only). */
  foreignOwner(store: WfmStore, deviceId: string): Client | undefined;
  /** P10: POST on a capabilities path is taken as a PUT (the rc.3 paths allow PUT and DELETE only). */
  takesPostAsPut: boolean;
}

export const cleanCapabilitiesDecisions: CapabilitiesDecisions = {
  closesCapabilitiesRoot: true,
  checksEnumValues: true,
  requiresCpus: false,
  scopesDeviceIdsPerClient: true,
  extensionsExcuseSemanticErrors: false,
  capabilitiesRefusal: () => undefined,
  gatewayFound: (client, id) => client.devices.has(id),
  missingGateway: (_client, _ancestors, missing) => missing[0],
  answersCreated: (_client, _deviceId, stored) => stored === undefined,
  deleteRemoves: () => true,
  foreignOwner: () => undefined,
  takesPostAsPut: false,
};
