// P4 state manifest: what `GET /api/v1/clients/{clientId}/deployments` returns.
import { mediaTypes } from '../media-types.ts';
import { DIGEST_PATTERN, DRAFT, UUID_PATTERN, type JsonSchema } from './common.ts';

const digest: JsonSchema = { type: 'string', pattern: DIGEST_PATTERN };
const sizeBytes: JsonSchema = { type: 'integer', minimum: 0 };
// P4 writes the URLs as paths under {base_url}, so a relative reference is accepted.
const url: JsonSchema = { type: 'string', minLength: 1, format: 'uri-reference' };

const deployment: JsonSchema = {
  type: 'object',
  required: ['deploymentId', 'digest', 'url'],
  properties: { deploymentId: { type: 'string', pattern: UUID_PATTERN }, digest, sizeBytes, url },
};

/** State manifest for a vendor token (P1): the bundle media type carries it. */
export function stateManifestSchema(vendor: string): JsonSchema {
  const bundle: JsonSchema = {
    type: 'object',
    required: ['mediaType', 'digest', 'url'],
    properties: { mediaType: { const: mediaTypes(vendor).deploymentBundle }, digest, sizeBytes, url },
  };
  return {
    $schema: DRAFT,
    title: 'StateManifest',
    type: 'object',
    required: ['manifestVersion', 'bundle', 'deployments'],
    properties: {
      // P4 allows up to 2^64-1, but JSON numbers above 2^53 lose precision in JavaScript, so no maximum here.
      manifestVersion: { type: 'integer', minimum: 1 },
      // Null exactly when `deployments` is empty: a rule, since it relates two fields.
      bundle: { type: ['object', 'null'], anyOf: [{ type: 'null' }, bundle] },
      deployments: { type: 'array', items: deployment },
    },
  };
}
