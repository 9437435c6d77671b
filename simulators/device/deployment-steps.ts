// The per-deployment part of the device machine: what a polled manifest, a fetched YAML and an apply step do to one
// deployment, with §2.4.1 adoption kept by the spec's own model (spec/rules/manifest-version.ts).
import {
  INITIAL_ADOPTION,
  applyFailed,
  beganApplying,
  fetched,
  resynchronized,
  type AdoptionState,
} from '../../spec/rules/manifest-version.ts';
import type { DeploymentState, StatusError } from '../../spec/types.ts';

/** What applying one component needs from the ApplicationDeployment (P4 `components[].properties`). */
export interface ComponentRef {
  name: string;
  properties: { repository: string; revision: string; wait?: boolean; timeout?: string };
}

export interface ComponentSlot {
  ref: ComponentRef;
  state: DeploymentState;
  error?: StatusError;
}

/** fetch: the wanted revision's YAML is not held yet; apply: adopted, components in progress; settled: nothing to do. */
export type DeploymentStage = 'fetch' | 'apply' | 'settled' | 'removing' | 'removed';

export interface DeploymentSlot {
  deploymentId: string;
  /** P4 digest and URL of the wanted revision (a revision is the deployment's YAML bytes). */
  digest: string;
  url: string;
  adoption: AdoptionState;
  stage: DeploymentStage;
  /** `metadata.name`, the source of a non-gateway status.error (§2.4 source rule 2); '' until fetched. */
  name: string;
  /** `spec.deploymentProfile.type`. */
  type: string;
  /** Which device runs it: 0 = this device, i > 0 = the i-th device behind a see-thru gateway, -1 = refused. */
  host: number;
  /** deviceId written in reports (§2.4: required when reporting for a child). */
  reportAs?: string;
  components: ComponentSlot[];
  reportDue: boolean;
  /** Created from the first manifest after a loss of local state: adopt by resynchronizing (§2.4.1 rule 6). */
  resync: boolean;
}

/** What the device keeps of one manifest entry (P4). */
export interface ManifestEntry {
  deploymentId: string;
  digest: string;
  url: string;
}

/** A fetched, digest-verified, schema-valid ApplicationDeployment, reduced to what the device needs. */
export interface DeploymentSummary {
  name: string;
  type: string;
  components: ComponentRef[];
  placement: Placement;
}

/** Where a gateway puts a deployment: on a device it knows, or refused with a reserved code (§2.4). */
export type Placement = { host: number; reportAs?: string } | { refusal: StatusError; reportAs?: string };

const NO_COMPONENTS: ComponentSlot[] = [];

export function newSlot(entry: ManifestEntry, version: number, resync: boolean): DeploymentSlot {
  return {
    deploymentId: entry.deploymentId,
    digest: entry.digest,
    url: entry.url,
    adoption: fetched(INITIAL_ADOPTION, version, true),
    stage: 'fetch',
    name: '',
    type: '',
    host: 0,
    components: NO_COMPONENTS,
    reportDue: false,
    resync,
  };
}

/** Rule 4: a new revision in a fetched manifest is recorded as pending; the held one (and its report) stays. */
export function revised(slot: DeploymentSlot, entry: ManifestEntry, version: number): DeploymentSlot {
  if (slot.digest === entry.digest && slot.stage !== 'removing' && slot.stage !== 'removed') return slot;
  return { ...slot, digest: entry.digest, url: entry.url, adoption: fetched(slot.adoption, version, true), stage: 'fetch' };
}

/** A deployment gone from manifest `version`: removing it begins applying that manifest. Undefined: drop it. */
export function withdrawn(slot: DeploymentSlot, version: number): DeploymentSlot | undefined {
  if (slot.adoption.held === undefined) return undefined;
  if (slot.stage === 'removing' || slot.stage === 'removed') return slot;
  const adoption = beganApplying(fetched(slot.adoption, version, false), version);
  return {
    ...slot,
    adoption,
    stage: 'removing',
    components: slot.components.map((c) => ({ ref: c.ref, state: 'removing' })),
    reportDue: true,
  };
}

/** Rules 1, 5, 6: holding the YAML and beginning to apply it adopts the pending revision. */
export function adopted(slot: DeploymentSlot, summary: DeploymentSummary, fallbackVersion: number): DeploymentSlot {
  const version = slot.adoption.fetched ?? fallbackVersion;
  let adoption = slot.resync ? resynchronized(slot.adoption, version) : beganApplying(slot.adoption, version);
  const { reportAs } = summary.placement;
  const base = {
    ...slot,
    name: summary.name,
    type: summary.type,
    resync: false,
    reportDue: true,
    ...(reportAs !== undefined ? { reportAs } : {}),
  };
  if ('refusal' in summary.placement) {
    const error = summary.placement.refusal;
    adoption = applyFailed(adoption);
    return {
      ...base,
      adoption,
      host: -1,
      stage: 'settled',
      components: summary.components.map((ref) => ({ ref, state: 'failed', error })),
    };
  }
  return {
    ...base,
    adoption,
    host: summary.placement.host,
    stage: 'apply',
    components: summary.components.map((ref) => ({ ref, state: 'pending' })),
  };
}

/** The next component step of an adopted deployment, or undefined when it has none. */
export function nextStep(slot: DeploymentSlot): { component: number; step: 'begin' | 'run' | 'remove' } | undefined {
  if (slot.stage === 'removing') return { component: 0, step: 'remove' };
  if (slot.stage !== 'apply') return undefined;
  const running = slot.components.findIndex((c) => c.state === 'installing');
  if (running >= 0) return { component: running, step: 'run' };
  const waiting = slot.components.findIndex((c) => c.state === 'pending');
  return waiting >= 0 ? { component: waiting, step: 'begin' } : undefined;
}

/** One component step done: begin -> installing; run -> installed or failed (§4.8: a failure ends the apply); remove -> removed. */
export function stepped(
  slot: DeploymentSlot,
  component: number,
  step: 'begin' | 'run' | 'remove',
  outcome?: { state: 'installed' | 'failed'; error?: StatusError },
): DeploymentSlot {
  if (step === 'remove') {
    return { ...slot, stage: 'removed', components: slot.components.map((c) => ({ ref: c.ref, state: 'removed' })), reportDue: true };
  }
  const state: DeploymentState = step === 'begin' ? 'installing' : (outcome?.state ?? 'failed');
  const components = slot.components.map((c, i): ComponentSlot => {
    if (i !== component) return c;
    return state === 'failed' && outcome?.error ? { ref: c.ref, state, error: outcome.error } : { ref: c.ref, state };
  });
  const failed = state === 'failed';
  const done = failed || !components.some((c) => c.state === 'pending' || c.state === 'installing');
  return {
    ...slot,
    components,
    adoption: failed ? applyFailed(slot.adoption) : slot.adoption,
    stage: done ? 'settled' : 'apply',
    reportDue: true,
  };
}
