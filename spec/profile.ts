// The readings of profiles.md as one typed object: every "not shown" choice is a named, overridable value.
import { DEVICE_ID_PATTERN } from './schemas/common.ts';

export type Edition = 'seed' | 'miaf';
export type Strictness = 'strict' | 'default' | 'lenient';
export type DeviceAuth = 'signature' | 'mtls' | 'none';
export type SignatureAlgorithm = 'ecdsa-p256-sha256' | 'rsa-pss-sha512' | 'ed25519';

export interface Profile {
  /** P1: vendor token in media types, annotation keys and the discovery path. */
  vendor: string;
  /** P2: path of the Certificate API that serves the WFM root CA. */
  certificatePath: string;
  /** P3: how Device API requests are authenticated. */
  deviceAuth: DeviceAuth;
  /** P3: signature algorithm the simulators use. */
  signatureAlgorithm: SignatureAlgorithm;
  /** P3: `seed` = /api/v1/capabilities/{deviceId}; `client-scoped` = /api/v1/clients/{clientId}/capabilities/{deviceId}. */
  paths: 'seed' | 'client-scoped';
  /** P4: how desired state reaches the client. */
  desiredState: 'v1' | 'hook';
  /** P8: how simulators write memory/storage: "16 Gi" (interfaces.md) or "16Gi" (the standard's schema). */
  quantityFormat: 'spaced' | 'compact';
  /** P9 */
  strictness: Strictness;
  /** P10 */
  edition: Edition;
  /** P4: digest algorithm of state manifests, deployment YAMLs and bundles. */
  digestAlgorithm: 'sha256';
  /** P5: default hook timeout. */
  hookTimeoutMs: number;
  /** P4/P10: where a client fetches its desired state: under `/api/v1/clients/{clientId}` (seed) or the caller's own `/api/v1/deployments` (miaf). */
  deploymentsPath: 'per-client' | 'caller';
  /** P6/P10: error bodies: `{"error": ...}` (seed) or RFC 9457 problem details with reserved types (miaf). */
  errors: 'p6' | 'problem-details';
  /** P10: the namespace of reserved problem types; `either` accepts both registries of the standard. */
  problemTypeBase: 'either' | 'management-interface' | 'specification';
  /** §2.1/P10: an open capabilities root (apiVersion, kind and unknown keys allowed) or the rc.3 closed root. */
  capabilitiesRoot: 'open' | 'closed';
  /** P10: the lowest TLS version the Device API should negotiate by default (miaf: 1.3; 1.2 only as a fallback). */
  tlsMinVersion: 'TLSv1.2' | 'TLSv1.3';
  /** P10: the key of each simulated client's X.509-SVID (P-256 is mandatory to implement; the others optional). */
  svidKeyAlgorithm: 'P-256' | 'P-384' | 'Ed25519' | 'RSA-3072';
}

export const SEED_PROFILE: Profile = Object.freeze({
  vendor: 'platform',
  certificatePath: '/api/v1/onboarding/certificate',
  deviceAuth: 'signature',
  signatureAlgorithm: 'ecdsa-p256-sha256',
  paths: 'seed',
  desiredState: 'v1',
  quantityFormat: 'spaced',
  strictness: 'default',
  edition: 'seed',
  digestAlgorithm: 'sha256',
  hookTimeoutMs: 30_000,
  deploymentsPath: 'per-client',
  errors: 'p6',
  problemTypeBase: 'either',
  capabilitiesRoot: 'open',
  tlsMinVersion: 'TLSv1.2',
  svidKeyAlgorithm: 'P-256',
});

/** P10: what the miaf edition changes in the seed preset; every value stays overridable. */
export const MIAF_PRESET: Partial<Profile> = Object.freeze({
  edition: 'miaf',
  deviceAuth: 'mtls',
  deploymentsPath: 'caller',
  errors: 'problem-details',
  capabilitiesRoot: 'closed',
  tlsMinVersion: 'TLSv1.3',
} as const);

/** The preset of an edition with any explicit overrides on top (P10: each value stays overridable). */
export function resolveProfile(overrides: Partial<Profile> = {}): Profile {
  const edition = overrides.edition ?? 'seed';
  const preset: Profile = edition === 'miaf' ? { ...SEED_PROFILE, ...MIAF_PRESET } : SEED_PROFILE;
  return { ...preset, ...stripUndefined(overrides) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Device API paths under {base_url} (interfaces.md §4, P2-P4). */
export type DeviceApiPaths = ReturnType<typeof buildDeviceApiPaths>;

const pathsByProfile = new WeakMap<Profile, DeviceApiPaths>();

/** The Device API paths of a profile; one object per profile, shared by every client (a fleet holds 100,000). */
export function deviceApiPaths(profile: Profile): DeviceApiPaths {
  let paths = pathsByProfile.get(profile);
  if (!paths) pathsByProfile.set(profile, (paths = buildDeviceApiPaths(profile)));
  return paths;
}

/** A device id of the schemas' pattern (RFC 3986 unreserved segments), which encodeURIComponent leaves as it is. */
const PLAIN_DEVICE_ID = new RegExp(DEVICE_ID_PATTERN);

function buildDeviceApiPaths(profile: Profile) {
  // Each segment percent-encoded; a valid id (every fleet's) is its own encoding, found by one test.
  const enc = (deviceId: string) => (PLAIN_DEVICE_ID.test(deviceId) ? deviceId : deviceId.split('/').map(encodeURIComponent).join('/'));
  return {
    certificate: profile.certificatePath,
    onboarding: '/api/v1/onboarding',
    capabilities: (deviceId: string, clientId?: string) =>
      profile.paths === 'client-scoped'
        ? `/api/v1/clients/${encodeURIComponent(clientId ?? '')}/capabilities/${enc(deviceId)}`
        : `/api/v1/capabilities/${enc(deviceId)}`,
    status: (deploymentId: string) => `/api/v1/deployments/${encodeURIComponent(deploymentId)}/status`,
    desiredState: (clientId: string) =>
      profile.deploymentsPath === 'caller' ? '/api/v1/deployments' : `/api/v1/clients/${encodeURIComponent(clientId)}/deployments`,
  };
}
