// Runs the pure device machine (machine.ts) through the Device API and the registry: plain devices, see-thru
// gateways (with their children, §2.2) and opaque gateways. Per device: the description, the env, one state.
import type { Profile } from '../../spec/profile.ts';
import type { DeviceCapabilities, Properties } from '../../spec/types.ts';
import type { DeviceApiClient } from '../device-api.ts';
import { hierarchy, placeDeployment } from '../gateways/see-thru.ts';
import type { RegistryClient } from '../registry-client.ts';
import { perform, type ActionContext } from './actions.ts';
import type { Placement } from './deployment-steps.ts';
import { capabilitiesOf, revisedCapabilities } from './documents.ts';
import {
  afterResult,
  beginTick,
  capabilitiesChanged,
  childDeparted,
  initialMachine,
  isLive,
  nextAction,
  stopped,
  type MachineState,
} from './machine.ts';
import type { DeviceDescription, DeviceKind, DeviceObserver, DevicePhase, SimulatedDevice } from './types.ts';
import { cleanClientDecisions, type ClientDecisions, type DocumentAt } from './decisions/index.ts';

export interface DeviceEnvironment {
  /** This device's client: its transport, its signing key (P3) and, after onboarding, its clientId. */
  api: DeviceApiClient;
  /** The registry client for a component's `oci://host[:port]/name` (called with `oci://host[:port]`). */
  registry?: (repositoryUrl: string) => RegistryClient;
  observer?: DeviceObserver;
  profile: Profile;
  /** §2.3: base64 DER of this device's X.509 certificate, whose key signs through `api`. */
  certificate: string;
  /**
   * P10 (miaf): the client id its SVID names. There is no Certificate API and no onboarding: the device starts as a
   * client and sends its capabilities first.
   */
  clientId?: string;
  /** What the client decides; default the clean client's (the kit's faulty client replaces some, simulators/faults/). */
  decisions?: ClientDecisions;
  /**
   * The machine's state when this device last stopped, from its own disk: a restart that kept its local state goes on
   * from it (onboarded, its deployments held), sending its capabilities again first as a client that connects does.
   */
  restored?: MachineState;
  /** Multiplies simulated waits (component timeouts, slow installs); default 1. */
  timeScale?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The kit's device can be told that what it reports changed (its memory): it PUTs its capabilities again (§2.1). Its
 * state can be saved to its disk (snapshot) for a restart.
 */
export interface ChangeableDevice extends SimulatedDevice {
  changeCapabilities(): Promise<void>;
  snapshot(): MachineState;
}

/**
 * A see-thru gateway can also be told that a device behind it went away (§2.2: DELETE its deviceId), or that its link
 * to one is down (it stays registered; what is placed on it fails with reserved code 102, §2.4).
 */
export interface SeeThruGateway extends ChangeableDevice {
  removeChild(deviceId: string): Promise<void>;
  disconnectChild(deviceId: string): void;
}

/** Upper bound of actions in one start() or tick(): a guard against a machine that never settles. */
export const MAX_STEPS_PER_RUN = 100_000;

export function createDevice(desc: DeviceDescription, env: DeviceEnvironment): ChangeableDevice {
  return new Device(desc, env);
}

export function createSeeThruGateway(desc: DeviceDescription, env: DeviceEnvironment): SeeThruGateway {
  if (desc.kind !== 'see-thru-gateway') throw new TypeError(`createSeeThruGateway: ${desc.id} is a ${desc.kind}`);
  return new Device(desc, env);
}

class Device implements SeeThruGateway, ActionContext {
  state: MachineState;
  /** Only a see-thru gateway keeps its pre-order device list; everyone else is its own single device. */
  private readonly devices: DeviceDescription[] | undefined;
  /** Indices of devices behind the gateway whose link is down (disconnectChild). */
  private disconnected: number[] = [];
  readonly decisions: ClientDecisions;

  constructor(
    readonly desc: DeviceDescription,
    readonly env: DeviceEnvironment,
  ) {
    this.decisions = env.decisions ?? cleanClientDecisions;
    const devices = desc.kind === 'see-thru-gateway' ? hierarchy(desc) : undefined;
    this.devices = devices && this.decisions.registrationOrder(devices);
    const start = initialMachine(this.devices?.length ?? 1, desc.faults);
    this.state = env.restored
      ? { ...structuredClone(env.restored), capsSent: -1, pollDue: false, stalled: false, attempts: 0 }
      : env.clientId === undefined
        ? start
        : { ...start, phase: 'onboarded', clientId: env.clientId };
  }

  snapshot(): MachineState {
    return structuredClone(this.state);
  }

  get id(): string {
    return this.desc.id;
  }
  get kind(): DeviceKind {
    return this.desc.kind;
  }
  get phase(): DevicePhase {
    return this.state.phase;
  }
  get clientId(): string | undefined {
    return this.state.clientId;
  }
  /** Why the device failed or what went wrong last, for summaries. */
  get lastError(): string | undefined {
    return this.state.lastError;
  }

  async start(): Promise<void> {
    await this.runUntil((s) => s.phase === 'reporting' || s.phase === 'failed' || s.phase === 'stopped');
  }

  async tick(): Promise<void> {
    // A client that does not stop after a 403 goes on at every tick as if it had not come.
    if (!this.decisions.stopsAfter403 && this.state.phase === 'failed' && this.state.refused) {
      const { refused: _gone, ...rest } = this.state;
      this.state = { ...rest, phase: 'reporting' };
    }
    this.state = beginTick(this.state);
    await this.runUntil(() => false);
  }

  /** A see-thru gateway going away takes its children with it: each DELETEd, descendants first. */
  async stop(): Promise<void> {
    if (this.devices && this.state.phase === 'reporting') {
      const live = this.devices.map((_, i) => i).filter((i) => i > 0 && isLive(this.state, i));
      this.state = childDeparted(this.state, live.reverse());
      await this.runUntil((s) => s.deleting.length === 0);
    }
    this.setState(stopped(this.state));
  }

  async removeChild(deviceId: string): Promise<void> {
    const devices = this.devices ?? [];
    const index = devices.findIndex((d, i) => i > 0 && d.id === deviceId);
    if (index < 0) throw new RangeError(`removeChild: ${deviceId} is not a device behind ${this.desc.id}`);
    const gone = devices.map((_, i) => i).filter((i) => i === index || devices[i]!.id.startsWith(`${deviceId}/`));
    this.state = childDeparted(this.state, gone.reverse());
    await this.runUntil((s) => s.deleting.length === 0);
  }

  disconnectChild(deviceId: string): void {
    const index = (this.devices ?? []).findIndex((d, i) => i > 0 && d.id === deviceId);
    if (index < 0) throw new RangeError(`disconnectChild: ${deviceId} is not a device behind ${this.desc.id}`);
    if (!this.disconnected.includes(index)) this.disconnected = [...this.disconnected, index];
  }

  async changeCapabilities(): Promise<void> {
    if (!this.decisions.sendsChangedCapabilities) return;
    this.state = capabilitiesChanged(this.state);
    await this.runUntil((s) => s.capsSent >= s.capsRevision);
  }

  deviceAt(index: number): DeviceDescription {
    return this.devices?.[index] ?? this.desc;
  }

  documentAt(index: number, revision: number): DeviceCapabilities {
    const format = this.env.profile.quantityFormat;
    const doc = capabilitiesOf(this.deviceAt(index), format);
    const sent = index === 0 && revision > 0 ? revisedCapabilities(doc, revision, format) : doc;
    return this.decisions.capabilitiesDocument(sent, whereSent(this.desc, index));
  }

  place(target: string | undefined): Placement {
    if (!this.devices) return { host: 0 };
    const devices = this.devices;
    return this.decisions.placement(target, devices[0]!.id, () =>
      placeDeployment(devices, target, (i) => isLive(this.state, i), this.disconnected),
    );
  }

  private async runUntil(done: (s: MachineState) => boolean): Promise<void> {
    for (let step = 0; step < MAX_STEPS_PER_RUN && !done(this.state); step++) {
      const action = nextAction(this.state);
      if (action.type === 'idle') return;
      const result = await perform(this, action);
      this.setState(afterResult(this.state, action, result));
    }
  }

  private setState(next: MachineState): void {
    const phase = this.state.phase;
    this.state = next;
    if (next.phase !== phase) this.env.observer?.({ type: 'phase', deviceId: this.desc.id, phase: next.phase });
  }
}

/**
 * Where a document is sent. An opaque gateway's children are read only when a decision asks for them (only a faulty
 * client's does): a fleet's compact child description makes its document anew, with faker, on each read.
 */
function whereSent(desc: DeviceDescription, index: number): DocumentAt {
  let children: readonly Properties[] | undefined;
  return {
    index,
    kind: desc.kind,
    get children() {
      return (children ??= desc.kind === 'opaque-gateway' ? (desc.children ?? []).map((c) => c.capabilities.properties) : []);
    },
  };
}
