// interfaces.md §4.7, retrieval workflow (WFM): the WFM lists versions, pulls the manifest of the selected version,
// then each layer blob, per the OCI pulling sections. The kit publishes a package to a registry it watches, assigns it
// (P5 with `package`, errata of REG-WFM-RETRIEVAL) and judges the requests that registry received.
import { test, expect, type PublishedPackage } from '../fixtures/watched-registry.ts';
import { req } from '../fixtures/req.ts';
import { ociPullRules, retrievalOrder, type PulledPackage } from '../spec/rules/wfm-retrieval.ts';

const pulled = (pkg: PublishedPackage): PulledPackage => ({
  name: pkg.name,
  version: pkg.version,
  manifestDigest: pkg.manifestDigest,
  layerDigests: pkg.manifest.layers.map((l) => l.digest),
});

const trail = (pulls: { method: string; path: string; status: number }[]) =>
  pulls.map((p) => `${p.method} ${p.path} ${p.status}`).join('\n');

test.describe('§4.7 retrieval workflow (WFM)', () => {
  test(
    "REG-WFM-RETRIEVAL the WFM lists the versions, pulls the selected version's manifest, then each layer blob",
    req('REG-WFM-RETRIEVAL'),
    async ({ retrieval }) => {
      const pkg = await retrieval.publish('retrieval');
      const { pulls, outcome } = await retrieval.assign(pkg);
      expect(outcome, `P5: assignDeployment of ${pkg.reference}:${pkg.version} succeeds`).toHaveProperty('deploymentId');
      expect(retrievalOrder(pulls, pulled(pkg)), `§4.7: the requests the registry received:\n${trail(pulls)}`).toEqual([]);
    },
  );

  test(
    "REG-WFM-OCI-PULL the WFM's pulls follow the OCI pulling sections: Accept on manifests, blobs by digest, digests verified",
    req('REG-WFM-OCI-PULL'),
    async ({ retrieval }) => {
      const pkg = await retrieval.publish('oci-pull');
      const { pulls, outcome } = await retrieval.assign(pkg);
      expect(outcome, `P5: assignDeployment of ${pkg.reference}:${pkg.version} succeeds`).toHaveProperty('deploymentId');
      expect(
        pulls.some((p) => p.path.startsWith(`/v2/${pkg.name}/`)),
        `§4.7: the WFM pulled ${pkg.reference}`,
      ).toBe(true);
      expect(ociPullRules(pulls, pulled(pkg)), `OCI pulling-manifests, pulling-blobs:\n${trail(pulls)}`).toEqual([]);

      // Pulling-blobs: a client verifies the bytes against the digest; a package whose blobs do not match is not deployed.
      const tampered = await retrieval.publish('tampered');
      retrieval.registry.tampered.add(tampered.name);
      const second = await retrieval.assign(tampered);
      expect(
        second.pulls.some((p) => p.path.startsWith(`/v2/${tampered.name}/blobs/`)),
        `§4.7: the WFM pulled the blobs of ${tampered.reference}`,
      ).toBe(true);
      expect(
        'refused' in second.outcome,
        `OCI pulling-blobs: the WFM refuses ${tampered.reference}:${tampered.version}, whose layer bytes do not hash to their digests`,
      ).toBe(true);
    },
  );
});
