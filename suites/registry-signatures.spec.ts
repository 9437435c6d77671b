// interfaces.md §4.7: "Signing packages as OCI artifacts is recommended." Once per worker the kit signs the first
// published package version (simulators/publish/signature.ts, errata of REG-SIGNED-PACKAGES) and pushes the signature
// with `subject` naming the package manifest; the check finds it the way a WFM would, through the referrers API.
import { generateKeyPairSync } from 'node:crypto';
import { test as registryTest, expect, isObject } from '../fixtures/registry.ts';
import { req } from '../fixtures/req.ts';
import { block, guarded } from '../fixtures/outcome.ts';
import { pushArtifact } from '../simulators/publish/push.ts';
import {
  buildSignature,
  SIGNATURE_ANNOTATION,
  SIGNATURE_ARTIFACT_TYPE,
  SIMPLE_SIGNING,
  signatureVerifies,
} from '../simulators/publish/signature.ts';
import { RegistryClient } from '../simulators/registry-client.ts';
import { createTransport } from '../simulators/transport/undici-transport.ts';
import { OCI_INDEX, OCI_MANIFEST } from '../spec/media-types.ts';

interface Signed {
  /** The signed package manifest. */
  subject: string;
  /** The signature manifest this run pushed: a registry used before keeps earlier runs' signatures of the same bytes. */
  signature: string;
  publicKeyPem: string;
}

/** The worker's signature push, or the requirement whose check its refusal breaks (a block of the test that needs it). */
type Signing = { ok: true; value: Signed } | { ok: false; cause: string; message: string };

const test = guarded(
  registryTest.extend<object, { signing: Signing | undefined }>({
    signing: [
      async ({ published, caPems }, use) => {
        if (published === undefined) return use(undefined);
        const transport = createTransport({ baseUrl: published.url, ...(caPems.length ? { ca: caPems } : {}), timeoutMs: 30_000 });
        try {
          const client = new RegistryClient({ transport });
          const { repository, versions, digests } = published.app;
          const subject = digests[versions[0]!]!;
          const pulled = await client.getManifest(repository, subject);
          if (pulled.response.status !== 200)
            return await use({
              ok: false,
              cause: 'REG-MANIFEST-BY-DIGEST',
              message: `GET the package manifest ${subject} answered ${pulled.response.status}`,
            });
          const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
          const signature = buildSignature(
            { mediaType: OCI_MANIFEST, digest: subject, size: pulled.bytes.length },
            `${new URL(published.url).host}/${repository}`,
            privateKey,
          );
          const pushed = await pushArtifact(client, repository, signature).then(
            (r) => r.manifestDigest,
            (e: Error) => new Error(e.message),
          );
          if (pushed instanceof Error)
            return await use({
              ok: false,
              cause: 'REG-PUSH-OCI',
              message: `the registry refused the signature artifact: ${pushed.message}`,
            });
          const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
          await use({ ok: true, value: { subject, signature: pushed, publicKeyPem } });
        } finally {
          await transport.close();
        }
      },
      { scope: 'worker' },
    ],
  }),
);

test.describe('§4.7 signed packages', () => {
  test(
    'REG-SIGNED-PACKAGES the package has a signature artifact, listed by the referrers API, that verifies against it',
    req('REG-SIGNED-PACKAGES'),
    async ({ registry, signing }) => {
      if (!signing!.ok) block(signing!.cause, signing!.message);
      const { subject, signature, publicKeyPem } = signing!.value;
      const name = registry.app.repository;
      // The registry fixture's transport: the test's evidence, closed by the fixture.
      const { transport } = registry;
      let index = await transport.request({
        method: 'GET',
        url: `${registry.url}/v2/${name}/referrers/${subject}?artifactType=${encodeURIComponent(SIGNATURE_ARTIFACT_TYPE)}`,
      });
      // OCI 1.1: a registry without the referrers API answers 404, and clients read the fallback tag instead.
      if (index.status === 404)
        index = await transport.request({
          method: 'GET',
          url: `${registry.url}/v2/${name}/manifests/${subject.replace(':', '-')}`,
          headers: { accept: OCI_INDEX },
        });
      expect(index.status, `§4.7, OCI listing referrers: GET /v2/${name}/referrers/${subject} answers 200 with an image index`).toBe(200);
      const doc: unknown = index.json();
      const listed = (isObject(doc) && Array.isArray(doc.manifests) ? doc.manifests : [])
        .filter(isObject)
        .filter((d) => d.artifactType === SIGNATURE_ARTIFACT_TYPE);
      expect(
        listed.length,
        `§4.7: the referrers of ${subject} include a signature (${SIGNATURE_ARTIFACT_TYPE}): ${index.text().slice(0, 300)}`,
      ).toBeGreaterThan(0);
      // Package bytes are deterministic, so a registry a run used before lists that run's signature too (another key).
      expect(
        listed.map((d) => d.digest),
        `§4.7: the referrers of ${subject} list the signature this run pushed, ${signature}`,
      ).toContain(signature);

      const { manifest } = await registry.manifest(name, signature);
      expect(
        (manifest as { subject?: { digest?: unknown } }).subject?.digest,
        "§4.7: the signature manifest's subject is the package manifest",
      ).toBe(subject);
      const layer = (manifest.layers ?? []).find((l) => l?.mediaType === SIMPLE_SIGNING);
      expect(layer, `§4.7: the signature manifest has a ${SIMPLE_SIGNING} layer`).toBeDefined();
      const payload = await registry.blob(name, layer!.digest);
      const sig = String((layer as { annotations?: Record<string, string> }).annotations?.[SIGNATURE_ANNOTATION] ?? '');
      expect(
        signatureVerifies(payload, sig, subject, publicKeyPem),
        "§4.7: the signature served verifies against the package manifest digest with the signer's key",
      ).toBe(true);
    },
  );
});
