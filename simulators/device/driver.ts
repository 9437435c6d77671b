// Runs the pure device machine (machine.ts) through the Device API and the registry: plain devices, see-thru
// gateways (with their children, §2.2) and opaque gateways. Per device: the description, the env, one state.
import type { Profile } from '../../spec/profile.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';
import type { DeviceApiClient } from '../device-api.ts';
import { hierarchy, placeDeployment, reservedError } from '../gateways/see-thru.ts';
import type { RegistryClient } from '../registry-client.ts';
import { perform, type ActionContext } from './actions.ts';
import type { Placement } from './deployments.ts';
import { capabilitiesOf, revisedCapabilities } from './documents.ts';
import { afterResult, beginTick, capabilitiesChanged, childDeparted, initialMachine, isLive, nextAction, stopped, type MachineState } from './machine.ts';
import type { DeviceDescription, DeviceKind, DeviceObserver, DevicePhase, SimulatedDevice } from './types.ts';
import { DOCUMENT_FAULTS, OPAQUE_FAULTS, type ActiveClientFaults } from '../faults/client-faults.ts';

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
  /** The kit's own client under test only: client faults (simulators/faults/) that break one rule each. */
  clientFaults?: ActiveClientFaults;
  /**
   * The machine's state when this device last stopped, from its own disk: a restart that kept its local state goes on
   * from it (onboarded, its deployments held), sending its capabilities again first as a client that connects does.
   */
  restored?: MachineState;
  /** Client fault AMV-RESYNC only: the versions it held before it lost its local state, by deploymentId. */
  staleVersions?: ReadonlyMap<string, number>;
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

  constructor(
    readonly desc: DeviceDescription,
    readonly env: DeviceEnvironment,
  ) {
    const devices = desc.kind === 'see-thru-gateway' ? hierarchy(desc) : undefined;
    // Client fault GW-ORDER-GATEWAY-FIRST: the devices behind the gateway register before it.
    this.devices = devices && env.clientFaults?.has('GW-ORDER-GATEWAY-FIRST') ? [...devices.slice(1), devices[0]!] : devices;
    const start = initialMachine(this.devices?.length ?? 1, desc.faults);
    this.state = env.restored ? { ...structuredClone(env.restored), capsSent: -1, pollDue: false, stalled: false, attempts: 0 }
      : env.clientId === undefined ? start : { ...start, phase: 'onboarded', clientId: env.clientId };
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
    // Client fault CLIENT-403-NOT-REPEATED: a 403 stops nothing; every tick goes on as if it had not come.
    if (this.env.clientFaults?.has('CLIENT-403-NOT-REPEATED') && this.state.phase === 'failed' && this.state.refused) {
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
    // Client fault CAP-UPDATE-ON-CHANGE: the change is never sent.
    if (this.env.clientFaults?.has('CAP-UPDATE-ON-CHANGE')) return;
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
    // Client fault GW-HOSTING-FULL-DOCUMENT: a hosting see-thru gateway's own document lacks supportedRuntimes.
    if (this.env.clientFaults?.has('GW-HOSTING-FULL-DOCUMENT') && index === 0 && this.desc.kind === 'see-thru-gateway') {
      const { supportedRuntimes: _dropped, ...properties } = sent.properties;
      return { ...sent, properties };
    }
    // Client faults of the document (simulators/faults/): each bends the client's own document one way.
    if (index === 0) for (const [id, f] of Object.entries(DOCUMENT_FAULTS)) if (this.env.clientFaults?.has(id)) return f.bend(sent);
    // Client faults of an opaque gateway's aggregate: each breaks one §2.2 aggregation rule.
    if (this.desc.kind === 'opaque-gateway') {
      const children = (this.desc.children ?? []).map((c) => c.capabilities.properties);
      for (const [id, f] of Object.entries(OPAQUE_FAULTS)) if (this.env.clientFaults?.has(id)) return f.bend(sent, children);
    }
    // Client faults GW-NONHOSTING-IDENTITY-ONLY (the gateway's own document: identity plus memory and storage, no
    // more) and GW-SEETHRU-SAME-SCHEMA (a device behind it sends its properties under another key).
    if (index === 0 && this.desc.kind === 'see-thru-gateway' && this.env.clientFaults?.has('GW-NONHOSTING-IDENTITY-ONLY')) {
      const { cpus: _c, supportedRuntimes: _r, supportedDeploymentTypes: _t, ...properties } = sent.properties;
      return { ...sent, properties: { memory: '4 Gi', storage: '32 Gi', ...properties } };
    }
    if (index > 0 && this.env.clientFaults?.has('GW-SEETHRU-SAME-SCHEMA')) {
      const { properties, ...rest } = sent;
      return { ...rest, device: properties } as never;
    }
    // Client fault PROPS-ID-HIERARCHY: a device behind the gateway names itself by its last id segment.
    if (index > 0 && this.env.clientFaults?.has('PROPS-ID-HIERARCHY')) return { ...sent, properties: { ...sent.properties, id: sent.properties.id.split('/').at(-1)! } };
    // Client fault PROPS-MEMORY-FORMAT: memory in decimal gigabytes, a unit §2.1.1 does not have.
    if (this.env.clientFaults?.has('PROPS-MEMORY-FORMAT') && sent.properties.memory !== undefined) return { ...sent, properties: { ...sent.properties, memory: '16GB' } };
    return sent;
  }

  place(target: string | undefined): Placement {
    if (!this.devices) return { host: 0 };
    const gatewayId = this.devices[0]!.id;
    // Client fault STATUS-RESERVED-103: the gateway never chooses a child for <gateway>/* and refuses with its own code.
    if (target?.endsWith('/*') && this.env.clientFaults?.has('STATUS-RESERVED-103')) {
      return { refusal: { code: 'NO_PLACEMENT', source: gatewayId, message: `cannot choose a device behind ${target.slice(0, -2)}` } };
    }
    const placement = placeDeployment(this.devices, target, (i) => isLive(this.state, i), this.disconnected);
    // Client fault STATUS-RESERVED-102: a child it cannot reach is reported as one it does not know (101).
    if ('refusal' in placement && placement.refusal.code === '102' && this.env.clientFaults?.has('STATUS-RESERVED-102')) {
      return { ...placement, refusal: reservedError('101', gatewayId) };
    }
    return placement;
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
