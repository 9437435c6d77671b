// A fake WFM for driving the pure device machine without I/O: it answers each Action with a Result, from a state
// manifest the test edits, and records every status report the machine would send.
import { afterResult, nextAction, slotOf, type Action, type MachineState, type Result } from '../../simulators/device/machine.ts';
import { statusReport } from '../../simulators/device/report.ts';
import type { DeploymentStatusReport } from '../../spec/types.ts';

export interface FakeDeployment {
  deploymentId: string;
  /** Changes with every new revision. */
  digest: string;
  components: string[];
}

export class FakeWfm {
  version = 1;
  deployments: FakeDeployment[] = [];
  reports: DeploymentStatusReport[] = [];
  actions: Action[] = [];
  /** Outcome of the next component runs; `installed` once the queue is empty. */
  outcomes: ('installed' | 'failed')[] = [];

  /** A new manifestVersion carrying `change` (P4: versions strictly increase). */
  publish(change: (deployments: FakeDeployment[]) => FakeDeployment[]): number {
    this.deployments = change(this.deployments);
    return ++this.version;
  }

  respond(s: MachineState, action: Action): Result {
    switch (action.type) {
      case 'onboard':
        return { ok: true, kind: 'onboarded', clientId: 'client-1' };
      case 'poll': {
        const etag = `"v${this.version}"`;
        if (action.etag === etag) return { ok: true, kind: 'not-modified' };
        const deployments = this.deployments.map((d) => ({
          deploymentId: d.deploymentId,
          digest: d.digest,
          url: `/d/${d.deploymentId}/${d.digest}`,
        }));
        return { ok: true, kind: 'manifest', version: this.version, deployments, etag };
      }
      case 'fetch-deployment': {
        const d = this.deployments.find((x) => x.deploymentId === action.deploymentId && x.digest === action.digest);
        if (!d) return { ok: false, transient: false, status: 404, message: 'gone' };
        const components = d.components.map((name) => ({ name, properties: { repository: 'oci://r/x', revision: '1.0.0' } }));
        return {
          ok: true,
          kind: 'deployment',
          summary: { name: `app-${d.deploymentId}`, type: 'compose', components, placement: { host: 0 } },
        };
      }
      case 'apply-step': {
        if (action.step !== 'run') return { ok: true, kind: 'done' };
        const source = slotOf(s, action.deploymentId)!.components[action.component]!.ref.name;
        return this.outcomes.shift() === 'failed'
          ? { ok: true, kind: 'applied', state: 'failed', error: { code: 'X', source, message: 'boom' } }
          : { ok: true, kind: 'applied', state: 'installed' };
      }
      case 'report-status': {
        const slot = slotOf(s, action.deploymentId);
        const report = slot && statusReport(slot, 'platform');
        if (report) this.reports.push(report);
        return { ok: true, kind: 'done' };
      }
      default:
        return { ok: true, kind: 'done' };
    }
  }

  /** Runs the machine until it idles (or `stop` says so). */
  run(s: MachineState, stop: (a: Action) => boolean = () => false): MachineState {
    for (let i = 0; i < 10_000; i++) {
      const action = nextAction(s);
      if (action.type === 'idle' || stop(action)) return s;
      this.actions.push(action);
      s = afterResult(s, action, this.respond(s, action));
    }
    throw new Error('machine did not settle');
  }
}
