// §2.6 trust bundle: a SPIFFE bundle, which is a JWK Set.
import { DRAFT, type JsonSchema } from './common.ts';

// Only `kty` is required per key: jwt-svid and unknown entries must be ignored by clients, not rejected.
const jwk: JsonSchema = {
  type: 'object',
  required: ['kty'],
  properties: {
    kty: { type: 'string', minLength: 1 },
    crv: { type: 'string' },
    x: { type: 'string' },
    y: { type: 'string' },
    n: { type: 'string' },
    e: { type: 'string' },
    use: { type: 'string' },
    kid: { type: 'string' },
    x5c: { type: 'array', items: { type: 'string' } },
  },
};

// Open objects: §2.6 says a client MUST tolerate unknown fields. "At least one x509-svid anchor" is rule 4.6/1.
export const trustBundleSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'TrustBundle',
  type: 'object',
  required: ['keys'],
  properties: {
    spiffe_sequence: { type: 'number' },
    spiffe_refresh_hint: { type: 'number' },
    keys: { type: 'array', items: jwk },
  },
};
