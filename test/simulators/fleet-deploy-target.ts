// The fleet target the deployment tests share: the embedded default with the sample compose component published
// and its own assignDeployment hook, started before the file's tests and closed after them.
import { after, before } from 'node:test';
import { startEmbedded, type Embedded } from '../../run/processes/embedded.ts';
import { sampleDeployments } from '../../simulators/fleet/assigned-deployments.ts';
import type { FleetTarget } from '../../simulators/fleet/runner.ts';

export function embeddedFleetTarget(): { readonly embedded: Embedded; readonly target: FleetTarget } {
  const shared = {} as { embedded: Embedded; target: FleetTarget };
  before(async () => {
    const embedded = await startEmbedded();
    const deployments = await sampleDeployments(embedded.registry, embedded.caPem, 'platform', embedded.hooks['assignDeployment']!);
    Object.assign(shared, { embedded, target: { wfm: embedded.wfm, ca: embedded.caPem, deviceCa: embedded.deviceCa, deployments } });
  });
  after(() => shared.embedded?.close());
  return shared;
}
