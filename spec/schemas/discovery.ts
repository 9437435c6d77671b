// §2.5 discovery document served at /.well-known/<vendor>.
import { DRAFT, type JsonSchema } from './common.ts';

// Open object: §2.5 says a client MUST ignore unknown fields.
export const discoveryDocumentSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'DiscoveryDocument',
  type: 'object',
  required: ['trustDomain', 'trustBundleUri'],
  properties: {
    // The SPIFFE trust domain name grammar (the SPIFFE IDs of §2.5 belong to it).
    trustDomain: { type: 'string', pattern: '^[a-z0-9._-]+$' },
    // Absolute URI; the https-only requirement is client rule §4.6, checked apart so its evidence names it.
    trustBundleUri: { type: 'string', format: 'uri' },
  },
};
