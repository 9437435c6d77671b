// P4: the ApplicationDeployment YAML the reference WFM serves for one assigned deployment.
import { stringify } from 'yaml';
import type { ApplicationDeployment } from '../../spec/types.ts';

export interface AssignedComponent {
  name: string;
  repository: string;
  revision: string;
}

export interface DeploymentInput {
  deploymentId: string;
  clientId: string;
  deviceId: string;
  applicationId: string;
  components: AssignedComponent[];
}

export function buildApplicationDeployment(input: DeploymentInput, vendor: string): ApplicationDeployment {
  return {
    apiVersion: `application.${vendor}.org/v1alpha1`,
    kind: 'ApplicationDeployment',
    metadata: {
      name: `${input.applicationId}-${input.deploymentId.slice(0, 8)}`,
      // The clientId is a UUID, already a valid namespace name.
      namespace: input.clientId,
      deviceId: input.deviceId,
      annotations: { id: input.deploymentId, applicationId: input.applicationId },
    },
    spec: {
      deploymentProfile: {
        type: 'compose',
        components: input.components.map((c) => ({
          name: c.name,
          properties: { repository: c.repository, revision: c.revision, wait: true, timeout: '5m0s' },
        })),
      },
      parameters: {},
    },
  };
}

/** The exact bytes served: their digest is the one the state manifest names. */
export function applicationDeploymentYaml(doc: ApplicationDeployment): Buffer {
  return Buffer.from(stringify(doc), 'utf8');
}
