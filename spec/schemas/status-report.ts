// §2.4 deployment status report, with P7: `status` is one object and `apiVersion`/`kind` may be sent.
import { DEPLOYMENT_STATES } from '../types.ts';
import { DEVICE_ID_PATTERN, DRAFT, UUID_PATTERN, type JsonSchema } from './common.ts';

/** Empty strings are allowed: P7 writes "no error" as `{code: "", source: "", message: ""}`. */
const error: JsonSchema = {
  type: 'object',
  required: ['code', 'source', 'message'],
  properties: {
    code: { type: 'string' },
    source: { type: 'string' },
    message: { type: 'string' },
  },
};

const state: JsonSchema = { enum: [...DEPLOYMENT_STATES] };

const component: JsonSchema = {
  type: 'object',
  required: ['name', 'state'],
  properties: { name: { type: 'string' }, state, error },
};

// Objects stay open: P7 says a WFM rejects nothing extra in a report.
export const deploymentStatusReportSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'DeploymentStatusReport',
  type: 'object',
  required: ['deploymentId', 'adoptedManifestVersion', 'status', 'components'],
  properties: {
    apiVersion: { type: 'string' },
    kind: { const: 'DeploymentStatusManifest' },
    deploymentId: { type: 'string', pattern: UUID_PATTERN },
    deviceId: { type: 'string', pattern: DEVICE_ID_PATTERN },
    // Integer >= 0 here; matching a manifestVersion the client adopted (§2.4.1) is a rule.
    adoptedManifestVersion: { type: 'integer', minimum: 0 },
    status: { type: 'object', required: ['state'], properties: { state, error } },
    // "Exactly one entry per component" needs the deployment, so it is a rule.
    components: { type: 'array', items: component },
  },
};
