// Client faults of the capabilities exchange (§2.1, §4.1, §4.2, API JSON): what it sends first, where, how, and
// whether it goes on after a 403 (simulators/device/decisions/capabilities.ts).
import { stringify } from 'yaml';
import type { ClientFaultTable } from './types.ts';

export const implementations: ClientFaultTable = {
  // The desired state is polled before the first capabilities.
  'CAP-FIRST-EXCHANGE': () => ({ sendsCapabilitiesFirst: false }),
  'API-JSON-REQUESTS': () => ({ capabilitiesBody: (doc) => stringify(doc) }),
  'CAP-DEVICEID-GRAMMAR': () => ({ capabilitiesPathId: (deviceId) => `${deviceId} x` }),
  'CAP-UPDATE-ON-CHANGE': () => ({ sendsChangedCapabilities: false }),
  // A 403 stops nothing: every tick goes on as if it had not come.
  'CLIENT-403-NOT-REPEATED': () => ({ stopsAfter403: false }),
};
