// The startClient hook of the device persona, seen from both ends: what the kit gives a client under test
// (fixtures/client-under-test.ts, an attended run's client.json) and what the client's starter answers (the kit's own
// client, client-runner.ts; a vendor's hook), so both read one contract.
import type { Edition } from '../spec/profile.ts';
import type { Properties } from '../spec/types.ts';
import type { DeviceKind } from './device/types.ts';

/** What startClient gets (P5-style hook input of the device persona); the kit minted the credentials for this run. */
export interface StartClientInput {
  /** Base URL of the WFM the client must use. */
  wfm: string;
  /** PEM of the CA of the services' TLS certificates. */
  caPem: string;
  /** The client's certificate (seed: its device certificate; miaf: its X.509-SVID chain) and key, PEM. */
  certPem: string;
  keyPem: string;
  edition: Edition;
  vendor: string;
  /** miaf: the WFM's SPIFFE ID, which the client checks. */
  wfmSpiffeId?: string;
  /** The OCI registry the run targets, when it names one (the kit's own client reaches registries its deployments name). */
  registry?: string;
  /** What the kit would like to see; a real client may be what it is (checks that need a kind skip otherwise). */
  kind?: DeviceKind;
  /** Seed of the simulated device's data. */
  seed?: number;
  /** §4.5: the discovery document's URL, from operator configuration (the client fetches its trust bundle from it). */
  discoveryUrl?: string;
  /** §4.5: the trust bundle URI from operator configuration, used without a discovery document. */
  trustBundleUri?: string;
  /** §4.6 rule 4: the operator-configured refresh interval of the trust bundle, in seconds. */
  bundleRefreshSeconds?: number;
  /**
   * Absent on a client's first start. Otherwise the kit stopped this client (same credentials) and starts it again:
   * `keep-state` as after a reboot, with whatever it keeps on its disk (its deployments, its cached trust bundle);
   * `lose-state` as after it lost its local state (§2.4.1 rule 6): wipe it first.
   */
  restart?: 'keep-state' | 'lose-state';
  /** The kit's own simulator only: client faults (faults/catalog.yaml, implemented in simulators/faults/) that break one rule each. */
  faults?: string[];
}

/** What startClient answers: a handle the other hooks name it by, and what it says of itself. */
export interface StartClientAnswer {
  handle?: string;
  deviceId?: string;
  kind?: string;
  /**
   * An opaque gateway's word on what it aggregates (`children`, `deploymentTypes`): the properties of each device
   * behind it, and the deployment types it can deploy; `problem` when the answer gives them in a wrong shape.
   */
  opaque?: { children?: Properties[]; deploymentTypes?: string[]; problem?: string };
}

/** What a startClient hook answers for a running client (besides its handle): its id, kind, and an opaque gateway's word. */
export function startClientAnswer(client: {
  deviceId: string;
  kind: DeviceKind;
  opaque?: { children: Properties[]; deploymentTypes: string[] };
}): Record<string, unknown> {
  return {
    deviceId: client.deviceId,
    kind: client.kind,
    ...(client.opaque && { children: client.opaque.children, deploymentTypes: client.opaque.deploymentTypes }),
  };
}

/** A startClient answer as JSON gave it, its fields kept when they have the right type. */
export function readStartClientAnswer(answer: Record<string, unknown>): StartClientAnswer {
  return {
    ...(typeof answer['handle'] === 'string' && { handle: answer['handle'] }),
    ...(typeof answer['deviceId'] === 'string' && { deviceId: answer['deviceId'] }),
    ...(typeof answer['kind'] === 'string' && { kind: answer['kind'] }),
    ...((answer['children'] !== undefined || answer['deploymentTypes'] !== undefined) && { opaque: opaqueAnswer(answer) }),
  };
}

/**
 * startClient's `children` and `deploymentTypes`, kept when they have the shape §2.1.1 gives them; otherwise `problem`
 * says why (the hook's answer is wrong: the check that needs it fails, P5).
 */
function opaqueAnswer(answer: Record<string, unknown>): NonNullable<StartClientAnswer['opaque']> {
  const children = answer['children'];
  const types = answer['deploymentTypes'];
  const isProperties = (p: unknown) => typeof p === 'object' && p !== null && typeof (p as { id?: unknown }).id === 'string';
  if (children !== undefined && !(Array.isArray(children) && children.every(isProperties)))
    return {
      problem: 'startClient answered children that are not an array of the properties (§2.1.1) of each device behind the opaque gateway',
    };
  if (types !== undefined && !(Array.isArray(types) && types.every((t) => typeof t === 'string')))
    return { problem: 'startClient answered deploymentTypes that are not an array of strings' };
  return {
    ...(children !== undefined && { children: children as Properties[] }),
    ...(types !== undefined && { deploymentTypes: types as string[] }),
  };
}
