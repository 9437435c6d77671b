// Client faults of gateways (§2.2, §4.2, reserved codes of §2.4): the order and paths a see-thru gateway registers and
// deletes its devices under, what an opaque gateway also shows, where a gateway places a deployment
// (simulators/device/decisions/capabilities.ts, status.ts).
import { reservedError } from '../gateways/see-thru.ts';
import type { ClientFaultTable } from './types.ts';

export const implementations: ClientFaultTable = {
  // The devices behind the gateway register before it.
  'GW-ORDER-GATEWAY-FIRST': () => ({
    registrationOrder: (devices) => (devices.length > 0 ? [...devices.slice(1), devices[0]!] : [...devices]),
  }),
  // A device behind the gateway is PUT under <gateway>/devices/..., a level never registered.
  'GW-SEETHRU-PATH-HIERARCHY': (base) => ({
    capabilitiesPathId: (deviceId, index) => (index > 0 ? deviceId.replace('/', '/devices/') : base.capabilitiesPathId(deviceId, index)),
  }),
  // The DELETE names the last id segment.
  'GW-SEETHRU-DELETE-CHILD': () => ({ deletePathId: (deviceId) => deviceId.split('/').at(-1)! }),
  'CAP-DELETE-NO-BODY': () => ({ deleteCarriesDocument: true }),
  // An opaque gateway also registers its document under an alias.
  'GW-OPAQUE-ONE-DOCUMENT': (base) => ({
    alsoRegisters: (gatewayId, doc, children) => [
      ...base.alsoRegisters(gatewayId, doc, children),
      { deviceId: `${gatewayId}-hub`, doc: { ...doc, properties: { ...doc.properties, id: `${gatewayId}-hub` } } },
    ],
  }),
  // An opaque gateway shows one of its children to the WFM too.
  'GW-OPAQUE-CHILDREN-HIDDEN': (base) => ({
    alsoRegisters: (gatewayId, doc, children) => {
      const child = children[0];
      if (!child) return base.alsoRegisters(gatewayId, doc, children);
      const deviceId = `${gatewayId}/${child.id.split('/').at(-1)}`;
      return [
        ...base.alsoRegisters(gatewayId, doc, children),
        { deviceId, doc: { ...child.capabilities, properties: { ...child.capabilities.properties, id: deviceId } } },
      ];
    },
  }),
  // The gateway never chooses a child for <gateway>/* and refuses with its own code.
  'STATUS-RESERVED-103': (base) => ({
    placement: (target, gatewayId, place) =>
      target?.endsWith('/*')
        ? { refusal: { code: 'NO_PLACEMENT', source: gatewayId, message: `cannot choose a device behind ${target.slice(0, -2)}` } }
        : base.placement(target, gatewayId, place),
  }),
  // A child it cannot reach is reported as one it does not know (101).
  'STATUS-RESERVED-102': (base) => ({
    placement: (target, gatewayId, place) => {
      const placed = base.placement(target, gatewayId, place);
      return 'refusal' in placed && placed.refusal.code === '102' ? { ...placed, refusal: reservedError('101', gatewayId) } : placed;
    },
  }),
};
