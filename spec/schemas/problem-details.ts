// P10 edition miaf: errors are RFC 9457 problem details (application/problem+json) with the standard's extensions.
import { DRAFT, type JsonSchema } from './common.ts';

export const BACKOFF_STRATEGIES = ['none', 'fixed', 'exponential'] as const;

export const problemDetailsSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'ProblemDetails',
  type: 'object',
  // RFC 9457 makes every member optional; P10 requires these three.
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', format: 'uri-reference' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', format: 'uri-reference' },
    retryable: { type: 'boolean' },
    retryAfterSeconds: { type: 'integer', minimum: 0 },
    backoffStrategy: { enum: [...BACKOFF_STRATEGIES] },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
  // RFC 9457 §3.2: extension members are allowed, and a client ignores those it does not know.
  additionalProperties: true,
};
