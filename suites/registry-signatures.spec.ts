// interfaces.md §4.7: "Signing packages as OCI artifacts is recommended." Once per worker the kit signs the first
// published package version (simulators/publish/signature.ts, errata of REG-SIGNED-PACKAGES) and pushes the signature
// with `subject` naming the package manifest (the `signing` worker fixture, fixtures/worker-registries.ts); the check finds it the way a WFM would, through the referrers API.
import { test, expect, isObject } from '../fixtures/registry.ts';
import { req } from '../fixtures/req.ts';
import { block } from '../fixtures/outcome.ts';
import { SIGNATURE_ANNOTATION, SIGNATURE_ARTIFACT_TYPE, SIMPLE_SIGNING, signatureVerifies } from '../simulators/publish/signature.ts';
import { OCI_INDEX } from '../spec/media-types.ts';

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
