// The device client of interfaces.md §1 as a pure state machine: nextAction() says what to do, afterResult() what
// it changed. No I/O, no clocks, no closures: a fleet holds 100,000 of these states.
import type { StatusError } from '../../spec/types.ts';
import {
  adopted,
  newSlot,
  nextStep,
  revised,
  stepped,
  withdrawn,
  type DeploymentSlot,
  type DeploymentSummary,
  type ManifestEntry,
} from './deployment-steps.ts';
import type { DeviceMisbehaviour, DevicePhase } from './types.ts';

export interface MachineState {
  phase: DevicePhase;
  clientId?: string;
  /** ETag of the last state manifest (P4 If-None-Match). */
  etag?: string;
  /** manifestVersion of the newest manifest processed; 0 before the first. */
  manifestVersion: number;
  /** P4 bundle of that manifest (every deployment YAML in one gzip tar), when it offers one. */
  bundle?: BundleRef;
  /** This device plus, for a see-thru gateway, every device behind it (registration order). */
  deviceCount: number;
  /** Devices whose first capabilities were accepted (or refused and skipped), in order. */
  registered: number;
  /** Children gone away (§2.2): never registered again; `deleting` still owe their DELETE. */
  departed: number[];
  deleting: number[];
  /** The own document's revision to send, and the revision the WFM has (§2.1: send again on change). */
  capsRevision: number;
  capsSent: number;
  polls: number;
  pollDue: boolean;
  /** A transient failure ends the tick; the next tick retries. */
  stalled: boolean;
  /** Consecutive transient failures before `reporting` (start gives up after MAX_START_ATTEMPTS). */
  attempts: number;
  /** The first manifest after a loss of local state is a resynchronization (§2.4.1 rule 6). */
  resyncing: boolean;
  faults: number;
  deployments: DeploymentSlot[];
  lastError?: string;
  /** A 403 ended it: the WFM's local policy no longer authorizes it (a retired relationship, §5). */
  refused?: true;
}

export type Action =
  | { type: 'fetch-root-ca' }
  | { type: 'onboard' }
  | { type: 'put-capabilities'; index: number; revision: number }
  | { type: 'poll'; etag?: string }
  | { type: 'fetch-deployment'; deploymentId: string; url: string; digest: string; bundle?: BundleRef; deployments?: ManifestEntry[] }
  | { type: 'apply-step'; deploymentId: string; component: number; step: 'begin' | 'run' | 'remove' }
  | { type: 'report-status'; deploymentId: string }
  | { type: 'delete-child'; index: number }
  | { type: 'idle' };

export type Result =
  | { ok: true; kind: 'done' }
  | { ok: true; kind: 'onboarded'; clientId: string }
  /** `force`: taken even when its version does not exceed the last one processed (client fault DS-CLIENT-MONOTONIC). */
  | { ok: true; kind: 'manifest'; version: number; deployments: ManifestEntry[]; etag?: string; bundle?: BundleRef; force?: true }
  | { ok: true; kind: 'not-modified' }
  | { ok: true; kind: 'deployment'; summary: DeploymentSummary }
  | { ok: true; kind: 'applied'; state: 'installed' | 'failed'; error?: StatusError }
  | { ok: false; transient: boolean; status?: number; message: string };

/** P4: where a manifest's bundle is and the digest its bytes must have. */
export interface BundleRef {
  digest: string;
  url: string;
}

export const MAX_START_ATTEMPTS = 3;
/** flappingCapabilities: the own document changes every this many polls. */
export const FLAP_EVERY_POLLS = 3;

const FLAPPING = 1;
const STATE_LOSS = 2;
const LOSS_DONE = 4;
const NONE: number[] = [];
const NO_SLOTS: DeploymentSlot[] = [];

export function initialMachine(deviceCount: number, faults: DeviceMisbehaviour = {}): MachineState {
  return {
    phase: 'new',
    manifestVersion: 0,
    deviceCount,
    registered: 0,
    departed: NONE,
    deleting: NONE,
    capsRevision: 0,
    capsSent: -1,
    polls: 0,
    pollDue: false,
    stalled: false,
    attempts: 0,
    resyncing: false,
    faults: (faults.flappingCapabilities ? FLAPPING : 0) | (faults.stateLoss ? STATE_LOSS : 0),
    deployments: NO_SLOTS,
  };
}

export function nextAction(s: MachineState): Action {
  if (s.phase === 'failed' || s.phase === 'stopped' || s.stalled) return { type: 'idle' };
  if (s.phase === 'new') return { type: 'fetch-root-ca' };
  if (s.phase === 'ca-fetched') return { type: 'onboard' };
  if (s.phase === 'onboarded') return { type: 'put-capabilities', index: s.registered, revision: s.capsRevision };
  if (s.deleting.length > 0) return { type: 'delete-child', index: s.deleting[0]! };
  if (s.capsRevision > s.capsSent) return { type: 'put-capabilities', index: 0, revision: s.capsRevision };
  if (s.pollDue) return s.etag === undefined ? { type: 'poll' } : { type: 'poll', etag: s.etag };
  const due = s.deployments.find((d) => d.reportDue);
  if (due) return { type: 'report-status', deploymentId: due.deploymentId };
  const toFetch = s.deployments.find((d) => d.stage === 'fetch');
  if (toFetch) {
    // With a bundle, the YAML can come from it too (when its own URL cannot serve it); the bundle must hold them all.
    const bundle = s.bundle && {
      bundle: s.bundle,
      deployments: s.deployments
        .filter((d) => d.stage !== 'removing' && d.stage !== 'removed')
        .map(({ deploymentId, digest, url }) => ({ deploymentId, digest, url })),
    };
    return { type: 'fetch-deployment', deploymentId: toFetch.deploymentId, url: toFetch.url, digest: toFetch.digest, ...bundle };
  }
  for (const d of s.deployments) {
    const step = nextStep(d);
    if (step) return { type: 'apply-step', deploymentId: d.deploymentId, ...step };
  }
  return { type: 'idle' };
}

/** §2.1: what the device reports changed; its next action sends the new revision of its own document. */
export function capabilitiesChanged(s: MachineState): MachineState {
  return { ...s, capsRevision: s.capsRevision + 1 };
}

/** A new cycle (tick): poll once, and retry whatever stalled the last one. A pending stateLoss fault strikes here. */
export function beginTick(s: MachineState): MachineState {
  if (s.phase !== 'reporting') return s;
  const base = { ...s, pollDue: true, stalled: false };
  const settled = s.deployments.some((d) => d.stage === 'settled');
  return (s.faults & STATE_LOSS) !== 0 && (s.faults & LOSS_DONE) === 0 && settled ? loseLocalState(base) : base;
}

/** §2.4.1 rule 6: every deployment, ETag and adoption forgotten; the next manifest is a resynchronization. */
export function loseLocalState(s: MachineState): MachineState {
  return { ...s, etag: undefined, manifestVersion: 0, deployments: NO_SLOTS, resyncing: true, faults: s.faults | LOSS_DONE };
}

/** §2.2: a child behind a see-thru gateway went away; a registered one is DELETEd, descendants first. */
export function childDeparted(s: MachineState, indices: number[]): MachineState {
  const fresh = indices.filter((i) => i > 0 && i < s.deviceCount && !s.departed.includes(i));
  if (fresh.length === 0) return s;
  const toDelete = fresh.filter((i) => i < s.registered);
  return { ...s, departed: [...s.departed, ...fresh], deleting: [...s.deleting, ...toDelete] };
}

export function stopped(s: MachineState): MachineState {
  return { ...s, phase: 'stopped' };
}

export function isLive(s: MachineState, index: number): boolean {
  return index < s.registered && !s.departed.includes(index);
}

export function afterResult(s: MachineState, action: Action, r: Result): MachineState {
  if (!r.ok) return afterFailure(s, action, r);
  switch (action.type) {
    case 'fetch-root-ca':
      return { ...s, phase: 'ca-fetched', attempts: 0 };
    case 'onboard':
      return r.kind === 'onboarded' ? { ...s, phase: 'onboarded', clientId: r.clientId, attempts: 0 } : s;
    case 'put-capabilities':
      return registeredOne(s, action.index, action.revision);
    case 'poll':
      return polled(s, r);
    case 'fetch-deployment':
      return r.kind === 'deployment' ? updateSlot(s, action.deploymentId, (d) => adopted(d, r.summary, s.manifestVersion)) : s;
    case 'apply-step': {
      const outcome = r.kind === 'applied' ? { state: r.state, ...(r.error ? { error: r.error } : {}) } : undefined;
      return updateSlot(s, action.deploymentId, (d) => stepped(d, action.component, action.step, outcome));
    }
    case 'report-status':
      return reported(s, action.deploymentId);
    case 'delete-child':
      return { ...s, deleting: s.deleting.filter((i) => i !== action.index) };
    case 'idle':
      return s;
  }
}

function registeredOne(s: MachineState, index: number, revision: number): MachineState {
  const caps = index === 0 ? { capsSent: Math.max(s.capsSent, revision) } : {};
  if (s.phase !== 'onboarded') return { ...s, ...caps };
  const registered = nextUnregistered(s, index + 1);
  return { ...s, ...caps, registered, attempts: 0, phase: registered >= s.deviceCount ? 'reporting' : 'onboarded' };
}

/** Departed children are skipped when registering (a child that went away before the gateway reported it). */
function nextUnregistered(s: MachineState, from: number): number {
  let i = from;
  while (i < s.deviceCount && s.departed.includes(i)) i++;
  return i;
}

function polled(s: MachineState, r: Extract<Result, { ok: true }>): MachineState {
  const polls = s.polls + 1;
  const flap = (s.faults & FLAPPING) !== 0 && polls % FLAP_EVERY_POLLS === 0 ? 1 : 0;
  const base = { ...s, pollDue: false, polls, capsRevision: s.capsRevision + flap };
  if (r.kind !== 'manifest') return base;
  // §2.4.1 rule 7: versions only grow and never repeat, so a manifest not newer than the last is stale and changes
  // nothing (the same manifest again is that too).
  if (r.version <= s.manifestVersion && !r.force) return base;
  const entries = new Map(r.deployments.map((e) => [e.deploymentId, e]));
  const kept: DeploymentSlot[] = [];
  for (const slot of s.deployments) {
    const entry = entries.get(slot.deploymentId);
    const next = entry ? revised(slot, entry, r.version) : withdrawn(slot, r.version);
    if (next) kept.push(next);
    entries.delete(slot.deploymentId);
  }
  for (const entry of entries.values()) kept.push(newSlot(entry, r.version, s.resyncing));
  const { bundle: _previous, ...rest } = base;
  return { ...rest, etag: r.etag, manifestVersion: r.version, resyncing: false, deployments: kept, ...(r.bundle && { bundle: r.bundle }) };
}

function reported(s: MachineState, deploymentId: string): MachineState {
  const slot = s.deployments.find((d) => d.deploymentId === deploymentId);
  if (slot?.stage === 'removed') return { ...s, deployments: s.deployments.filter((d) => d !== slot) };
  return updateSlot(s, deploymentId, (d) => ({ ...d, reportDue: false }));
}

function afterFailure(s: MachineState, action: Action, r: Extract<Result, { ok: false }>): MachineState {
  const failed = (why: string): MachineState => ({ ...s, phase: 'failed', lastError: why });
  const message = `${action.type}: ${r.message}`;
  // 403: not authorized by the WFM local policy (a retired client): nothing more to do (§4, §7).
  if (r.status === 403) return { ...failed(message), refused: true };
  if (s.phase !== 'reporting' && s.phase !== 'stopped') {
    // A child the WFM refuses (e.g. 404 for a missing gateway) counts as gone; the gateway and its other children go on.
    if (action.type === 'put-capabilities' && action.index > 0 && !r.transient) {
      const refused = { ...s, lastError: message, departed: [...s.departed, action.index] };
      const registered = nextUnregistered(refused, action.index + 1);
      return { ...refused, registered, phase: registered >= s.deviceCount ? 'reporting' : s.phase };
    }
    if (!r.transient || s.attempts + 1 >= MAX_START_ATTEMPTS) return failed(message);
    return { ...s, attempts: s.attempts + 1, lastError: message };
  }
  if (r.transient) return { ...s, stalled: true, lastError: message };
  switch (action.type) {
    case 'report-status':
      return { ...reported(s, action.deploymentId), lastError: message };
    case 'delete-child':
      return { ...s, deleting: s.deleting.filter((i) => i !== action.index), lastError: message };
    case 'put-capabilities':
      return { ...s, capsSent: Math.max(s.capsSent, action.revision), lastError: message };
    case 'poll':
      return { ...s, pollDue: false, stalled: true, lastError: message };
    default:
      // A YAML that fails its digest or schema is not adopted; the next tick fetches it again.
      return { ...s, stalled: true, lastError: message };
  }
}

function updateSlot(s: MachineState, deploymentId: string, f: (d: DeploymentSlot) => DeploymentSlot): MachineState {
  return { ...s, deployments: s.deployments.map((d) => (d.deploymentId === deploymentId ? f(d) : d)) };
}

export function slotOf(s: MachineState, deploymentId: string): DeploymentSlot | undefined {
  return s.deployments.find((d) => d.deploymentId === deploymentId);
}
