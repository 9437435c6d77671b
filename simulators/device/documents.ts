// The capabilities document each device sends, regenerated from its description on demand (never kept per device):
// plain (§2.1), see-thru gateway (§2.2 table), opaque gateway (§2.2 aggregation), and flapping revisions (§2.1).
import { canonicalQuantity, parseQuantity, type QuantityFormat } from '../../spec/rules/quantity.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import { opaqueDocument } from '../gateways/opaque.ts';
import { seeThruDocument } from '../gateways/see-thru.ts';
import type { DeviceDescription } from './types.ts';

export function capabilitiesOf(desc: DeviceDescription, format: QuantityFormat): DeviceCapabilities {
  switch (desc.kind) {
    case 'see-thru-gateway':
      return seeThruDocument(desc);
    case 'opaque-gateway':
      return opaqueDocument(desc, format);
    case 'plain':
      return desc.capabilities;
  }
}

/**
 * flappingCapabilities: odd revisions report three quarters of the memory, even ones all of it, so every revision
 * differs from the one before (§2.1: "sends updated capabilities whenever any reported information changes").
 */
export function revisedCapabilities(doc: DeviceCapabilities, revision: number, format: QuantityFormat): DeviceCapabilities {
  const memory = doc.properties.memory;
  if (revision % 2 === 0 || memory === undefined) return doc;
  const parsed = parseQuantity(memory, 'memory');
  if (!parsed.ok) return doc;
  return { ...doc, properties: { ...doc.properties, memory: canonicalQuantity((parsed.bytes * 3n) / 4n, 'memory', format) } };
}
