// What every route receives, and the helpers several routes share.
import { ociError } from './errors.ts';
import { checkDigest } from './grammar.ts';
import type { RegistryDecisions } from './decisions.ts';
import type { Reply, RouteRequest } from './http.ts';
import type { RegistryStore } from './store.ts';

export interface RegistryLimits {
  /** Largest blob, whole (all chunks together), in bytes. */
  maxBlobBytes: number;
  /** Largest manifest in bytes; the spec asks for at least 4 MiB. */
  maxManifestBytes: number;
  /** Upload sessions idle longer than this are forgotten (and their bytes go back to the quota). */
  uploadTtlMs: number;
}

export const DEFAULT_LIMITS: RegistryLimits = {
  maxBlobBytes: 64 * 1024 * 1024,
  maxManifestBytes: 4 * 1024 * 1024,
  uploadTtlMs: 10 * 60 * 1000,
};

export interface RouteDeps {
  store: RegistryStore;
  limits: RegistryLimits;
  decisions: RegistryDecisions;
  now(): number;
}

export type Route = (deps: RouteDeps, req: RouteRequest) => Reply | Promise<Reply>;

// Relative locations: the spec allows them and they stay right behind any proxy or Host header.
export const blobLocation = (name: string, digest: string): string => `/v2/${name}/blobs/${digest}`;
export const uploadLocation = (name: string, id: string): string => `/v2/${name}/blobs/uploads/${id}`;
export const manifestLocation = (name: string, digest: string): string => `/v2/${name}/manifests/${digest}`;

export function requireRepository(store: RegistryStore, name: string): void {
  if (!store.hasRepository(name)) throw ociError(404, 'NAME_UNKNOWN', 'repository name not known to registry', { name });
}

/** A digest from the request: malformed is 400 DIGEST_INVALID; a well-formed one of another algorithm is `unsupported()`. */
export function requestDigest(value: string, unsupported: () => Error): string {
  const check = checkDigest(value);
  if (check.ok) return check.digest;
  if (check.reason === 'invalid') throw ociError(400, 'DIGEST_INVALID', 'invalid digest', { digest: value });
  throw unsupported();
}

/** On a push, another algorithm is refused outright: this registry stores sha256 only. */
export const unsupportedAlgorithm = (digest: string): Error =>
  ociError(400, 'UNSUPPORTED', 'only sha256 digests are supported', { digest });
