// §2.2 opaque gateway: its one DeviceCapabilities document, aggregated from its children with the spec's rule.
// Children are never registered, targeted or reported: to the WFM the gateway is a single device.
import { aggregateOpaque } from '../../spec/rules/opaque-aggregation.ts';
import type { QuantityFormat } from '../../spec/rules/quantity.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import type { DeviceDescription } from '../device/types.ts';

/**
 * The gateway's identity, deployment types, labels and extensions from its description; the resource fields
 * aggregated from its children. Without children there is nothing to aggregate: the description's document stands.
 */
export function opaqueDocument(gateway: DeviceDescription, format: QuantityFormat): DeviceCapabilities {
  // Read once: a fleet's description makes its document again on every read after the first (compact-description.ts).
  const document = gateway.capabilities;
  const own = document.properties;
  const children = (gateway.children ?? []).map((c) => c.capabilities.properties);
  if (children.length === 0) return document;
  const { properties } = aggregateOpaque(
    {
      id: gateway.id,
      vendor: own.vendor,
      modelNumber: own.modelNumber,
      serialNumber: own.serialNumber,
      deploymentTypes: own.supportedDeploymentTypes ?? ['compose'],
      ...(own.otelCollector !== undefined ? { otelCollector: own.otelCollector } : {}),
    },
    children,
    format,
  );
  return { ...document, properties };
}
