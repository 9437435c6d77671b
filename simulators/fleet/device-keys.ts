// Where a fleet keeps its devices' signing keys. An OpenSSL P-256 key held as a KeyObject costs ~5.5 KB of native
// memory once it has signed (measured: 3.2-3.7 KB imported, about 2 KB more after its first signature), memory V8
// neither sees nor counts: half a gigabyte at 100,000 devices. So a small fleet holds every device's KeyObject, and
// a large one keeps each key as its JWK's three numbers (~150 B of heap) and imports it to sign (~0.1 ms). The keys
// of the devices started or signed last stay imported, since a device's start signs three requests in a row (a
// device's own key, in hand at its start, counts as its first import).
//
// Dropped keys are garbage within about a second: a key imported, used and let go dies young, and V8's scavenger
// frees its native memory. (A cache of thousands was measured worse: its keys lived long enough to be promoted, and
// an old key's memory waits for a major GC, which the heap's size alone does not call for.)
import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { SignatureAlgorithm } from '../../protocol/signing.ts';
import type { RequestSigner } from '../transport/types.ts';

/** Up to this many clients a fleet holds every key (~55 MB at most). */
export const KEYS_HELD_UP_TO_CLIENTS = 10_000;
/** Keys of the devices that signed last, kept imported in a large fleet. */
const RECENT_KEYS = 256;

export interface SignerIdentity {
  keyId: string;
  algorithm: SignatureAlgorithm;
  clockSkewSeconds?: number;
}

export class FleetKeys {
  private readonly recent = new Map<ImportingSigner, KeyObject>();

  constructor(readonly holdAll: boolean) {}

  static forClients(clients: number): FleetKeys {
    return new FleetKeys(clients <= KEYS_HELD_UP_TO_CLIENTS);
  }

  /** The device's signer: its KeyObject held, or only its JWK kept when the key is an EC one and the fleet large. */
  signer(identity: SignerIdentity, key: KeyObject, jwk: JsonWebKey | undefined): RequestSigner {
    const compact = this.holdAll ? undefined : compactJwk(jwk ?? key.export({ format: 'jwk' }));
    if (compact === undefined) return { ...identity, privateKey: key };
    const signer = new ImportingSigner(identity, compact, this);
    // The key in hand is the device's first import: its start signs next, with no import of its own.
    this.remember(signer, key);
    return signer;
  }

  /** @internal */
  keyOf(signer: ImportingSigner): KeyObject {
    const key = this.recent.get(signer) ?? signer.importKey();
    this.remember(signer, key);
    return key;
  }

  /** The signer's key becomes the most recent; past RECENT_KEYS, the least recent is let go. */
  private remember(signer: ImportingSigner, key: KeyObject): void {
    if (!this.recent.delete(signer) && this.recent.size >= RECENT_KEYS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(signer, key);
  }

  /** How many keys are imported now (for tests). */
  get importedNow(): number {
    return this.recent.size;
  }
}

class ImportingSigner implements RequestSigner {
  readonly keyId: string;
  readonly algorithm: SignatureAlgorithm;
  readonly clockSkewSeconds?: number;

  constructor(
    identity: SignerIdentity,
    /** `crv.d.x.y` (base64url): one string instead of a JWK object of five. */
    private readonly jwk: string,
    private readonly keys: FleetKeys,
  ) {
    this.keyId = identity.keyId;
    this.algorithm = identity.algorithm;
    if (identity.clockSkewSeconds) this.clockSkewSeconds = identity.clockSkewSeconds;
  }

  get privateKey(): KeyObject {
    return this.keys.keyOf(this);
  }

  importKey(): KeyObject {
    const [crv, d, x, y] = this.jwk.split('.');
    return createPrivateKey({ key: { kty: 'EC', crv, d, x, y }, format: 'jwk' });
  }
}

/** An EC private JWK as `crv.d.x.y`; undefined for another key type (held as a KeyObject: RSA and Ed25519 are rare). */
function compactJwk(jwk: JsonWebKey): string | undefined {
  if (jwk.kty !== 'EC' || !jwk.crv || !jwk.d || !jwk.x || !jwk.y) return undefined;
  return `${jwk.crv}.${jwk.d}.${jwk.x}.${jwk.y}`;
}
