// Faults of §2.2 gateways and the see-thru hierarchy (PUT/DELETE ordering, 404): rewrites of the answers, or
// capabilities decisions of the reference WFM (reference/wfm/decisions/capabilities.ts).
import { parentOf } from '../../spec/rules/device-id.ts';
import { classifyDocument } from '../../spec/rules/capabilities.ts';
import type { Client } from '../wfm/store.ts';
import { CAPABILITIES, refusingDocument } from './capabilities.ts';
import { on } from './rewrite.ts';
import type { ServiceFaultImplementation, ServiceFaultTable } from './types.ts';

/** A child deviceId: at least one `/` after the first segment. */
const CHILD = /^\/api\/v1\/(clients\/[^/]+\/)?capabilities\/[^/]+\/.+/;

/** GW-ORDER-DELETED-GATEWAY-404: a deleted id is remembered, and still taken for a gateway. */
function deletedStillGateway(): ServiceFaultImplementation {
  return {
    wfm: (base) => {
      const deleted = new WeakMap<Client, Set<string>>();
      const idsOf = (client: Client): Set<string> => {
        let ids = deleted.get(client);
        if (!ids) deleted.set(client, (ids = new Set()));
        return ids;
      };
      return {
        deleteRemoves: (owner, deviceId) => {
          idsOf(owner).add(deviceId);
          return base.deleteRemoves(owner, deviceId);
        },
        gatewayFound: (client, id) => base.gatewayFound(client, id) || idsOf(client).has(id),
      };
    },
  };
}

export const implementations: ServiceFaultTable = {
  'CAP-PUT-404': { rewrite: () => on('PUT', CAPABILITIES, (a) => (a.status === 404 ? { ...a, status: 422 } : undefined)) },
  'CAP-DELETE-204:child': { rewrite: () => on('DELETE', CHILD, (a) => (a.status === 204 ? { ...a, status: 404 } : undefined)) },
  // A child is accepted when none of its gateways has reported yet.
  'GW-ORDER-CHILD-FIRST-404': {
    wfm: (base) => ({
      missingGateway: (client, ancestors, missing) =>
        missing.length === ancestors.length ? undefined : base.missingGateway(client, ancestors, missing),
    }),
  },
  // Missing intermediates below a known root gateway are registered implicitly.
  'CAP-ONE-DEVICE-PER-REQUEST': {
    wfm: (base) => ({
      missingGateway: (client, ancestors, missing) => {
        if (missing[0] === ancestors[0]) return base.missingGateway(client, ancestors, missing);
        for (const id of missing) client.devices.set(id, { properties: { id, vendor: '', modelNumber: '', serialNumber: '' } });
        return undefined;
      },
    }),
  },
  'GW-ORDER-DELETED-GATEWAY-404': deletedStillGateway(),
  // The Y* fields treated as required of every device, non-hosting see-thru gateways included.
  'GW-NONHOSTING-ACCEPTED': refusingDocument(
    'GW-NONHOSTING-ACCEPTED',
    422,
    'cpus, memory, storage... are required',
    (d) => classifyDocument(d.properties) === 'identity-only',
  ),
  // A gateway that hosts no workloads is not taken for a gateway.
  'GW-SEETHRU-HOSTING-OPTIONAL': {
    wfm: (base) => ({
      gatewayFound: (client, id) => {
        const doc = client.devices.get(id);
        return doc ? classifyDocument(doc.properties) !== 'identity-only' : base.gatewayFound(client, id);
      },
    }),
  },
  // Children share one view, so a new sibling is answered as an update.
  'GW-SEETHRU-CHILD-INDIVIDUAL': {
    wfm: (base) => ({
      answersCreated: (client, deviceId, stored, next) => {
        const parent = parentOf(deviceId);
        const sibling = parent !== undefined && [...client.devices.keys()].some((k) => k !== deviceId && parentOf(k) === parent);
        return !sibling && base.answersCreated(client, deviceId, stored, next);
      },
    }),
  },
  // A gateway matched by character prefix at the same depth, not by whole segments.
  'GW-SEETHRU-INFER-HIERARCHY': {
    wfm: (base) => ({
      gatewayFound: (client, id) => {
        const depth = id.split('/').length;
        return base.gatewayFound(client, id) || [...client.devices.keys()].some((k) => k.split('/').length === depth && id.startsWith(k));
      },
    }),
  },
};
