// §2.3 OnboardingRequest and the body of the 201 onboarding response.
import { BASE64_PATTERN, DRAFT, type JsonSchema } from './common.ts';

export const onboardingRequestSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'OnboardingRequest',
  type: 'object',
  required: ['apiVersion', 'kind', 'certificate'],
  properties: {
    apiVersion: { type: 'string', minLength: 1 },
    kind: { const: 'OnboardingRequest' },
    // Base64 text only; whether it decodes to a certificate is a rule (400 "invalid certificate format").
    certificate: { type: 'string', pattern: BASE64_PATTERN },
  },
};

export const onboardingResponseSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'OnboardingResponse',
  type: 'object',
  required: ['clientId'],
  properties: {
    // URL-safe: RFC 3986 unreserved characters, plus `=` so padded base64url UUIDs pass.
    clientId: { type: 'string', pattern: '^[A-Za-z0-9._~=-]+$' },
  },
};
