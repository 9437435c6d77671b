// Signing a package as an OCI artifact (§4.7 "Signing packages as OCI artifacts is recommended"), the way cosign does
// with the OCI 1.1 referrers API (errata of REG-SIGNED-PACKAGES): a simple-signing payload naming the package manifest's
// digest, signed with ECDSA P-256/SHA-256, carried by an image manifest whose `subject` is the package manifest.
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { OCI_EMPTY_DESCRIPTOR, OCI_MANIFEST } from '../../spec/media-types.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import { blobOf, EMPTY_CONFIG_BLOB, type BuiltArtifact } from './artifact.ts';

export const SIGNATURE_ARTIFACT_TYPE = 'application/vnd.dev.cosign.artifact.sig.v1+json';
export const SIMPLE_SIGNING = 'application/vnd.dev.cosign.simplesigning.v1+json';
export const SIGNATURE_ANNOTATION = 'dev.cosignproject.cosign/signature';

export interface Subject {
  mediaType: string;
  digest: string;
  size: number;
}

/** The signature artifact for `subject`, pushed by its digest (a referrer needs no tag). */
export function buildSignature(subject: Subject, dockerReference: string, privateKey: KeyObject): BuiltArtifact {
  const payload = Buffer.from(
    JSON.stringify({
      critical: {
        identity: { 'docker-reference': dockerReference },
        image: { 'docker-manifest-digest': subject.digest },
        type: 'cosign container image signature',
      },
      optional: null,
    }),
  );
  const signature = sign('sha256', payload, privateKey).toString('base64');
  const layer = blobOf(payload, SIMPLE_SIGNING, { [SIGNATURE_ANNOTATION]: signature });
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: SIGNATURE_ARTIFACT_TYPE,
    config: { mediaType: OCI_EMPTY_DESCRIPTOR.mediaType, digest: OCI_EMPTY_DESCRIPTOR.digest, size: OCI_EMPTY_DESCRIPTOR.size },
    layers: [{ mediaType: layer.mediaType, digest: layer.digest, size: layer.bytes.byteLength, annotations: layer.annotations }],
    subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
  };
  const bytes = new TextEncoder().encode(JSON.stringify(manifest));
  const manifestDigest = digestOf(bytes);
  return { tag: manifestDigest, blobs: [EMPTY_CONFIG_BLOB, layer], manifest: bytes, manifestDigest };
}

/** Whether `payload` is a simple-signing payload for `digest` and `signature` (base64) verifies it with `publicKey`. */
export function signatureVerifies(payload: Uint8Array, signature: string, digest: string, publicKey: KeyObject | string): boolean {
  let named: unknown;
  try {
    named = (JSON.parse(new TextDecoder().decode(payload)) as { critical?: { image?: { 'docker-manifest-digest'?: unknown } } }).critical
      ?.image?.['docker-manifest-digest'];
  } catch {
    return false;
  }
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  return named === digest && verify('sha256', payload, key, Buffer.from(signature, 'base64'));
}
