// P4 ApplicationDeployment YAML, as parsed into JSON.
import { DEPLOYMENT_DEVICE_ID_PATTERN, DRAFT, SEMVER_PATTERN, UUID_PATTERN, type JsonSchema } from './common.ts';

const componentProperties: JsonSchema = {
  type: 'object',
  required: ['repository', 'revision'],
  properties: {
    repository: { type: 'string', pattern: '^oci://.+' },
    revision: { type: 'string', pattern: SEMVER_PATTERN },
    wait: { type: 'boolean' },
    // Its grammar is not shown in the seed edition.
    timeout: { type: 'string' },
  },
};

// Objects stay open: §2.7 says every other field of the manifest is "not shown".
export const applicationDeploymentSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'ApplicationDeployment',
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', minLength: 1 },
    kind: { const: 'ApplicationDeployment' },
    metadata: {
      type: 'object',
      required: ['name', 'annotations'],
      properties: {
        name: { type: 'string', minLength: 1 },
        namespace: { type: 'string' },
        deviceId: { type: 'string', pattern: DEPLOYMENT_DEVICE_ID_PATTERN },
        annotations: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', pattern: UUID_PATTERN }, applicationId: { type: 'string' } },
        },
      },
    },
    spec: {
      type: 'object',
      required: ['deploymentProfile'],
      properties: {
        deploymentProfile: {
          type: 'object',
          required: ['type', 'components'],
          properties: {
            // `helm.v3` (P4), `helm` (P10) or `compose`: fit with the device's types is a rule.
            type: { type: 'string', minLength: 1 },
            components: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['name', 'properties'],
                properties: { name: { type: 'string', minLength: 1 }, properties: componentProperties },
              },
            },
          },
        },
        parameters: { type: 'object' },
      },
    },
  },
};
