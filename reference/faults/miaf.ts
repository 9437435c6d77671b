// Faults of profiles.md P10, edition miaf: mutual TLS with SVIDs, the rc.3 paths and schemas, problem details. Each
// runs against the reference services in edition miaf: rewrites of the answers, or decisions of the reference WFM
// (reference/wfm/decisions/: mtls.ts, capabilities.ts, desired-state.ts, status.ts, problems.ts).
import { IMMUTABLE_PUBLIC } from '../wfm/decisions/desired-state.ts';
import type { Client } from '../wfm/store.ts';
import { anyDeploymentDigest, editingYaml, emptyBundle, versionsFromZero } from './desired-state.ts';
import { on } from './rewrite.ts';
import type { ServiceFaultImplementation, ServiceFaultTable } from './types.ts';

const MANIFEST = /^\/api\/v1\/deployments$/;
const DEPLOYMENT = /^\/api\/v1\/deployments\/[^/]+\/sha[^/]+$/;
const BUNDLE = /^\/api\/v1\/bundles\/[^/]+$/;
const STATUS = /^\/api\/v1\/deployments\/[^/]+\/status$/;

const unquoted = (etag: unknown) => String(etag ?? '').replace(/^"|"$/g, '');

/** A WFM whose handshake lets through what OpenSSL refuses with `codes`, and which then overlooks `rules` of the SVID. */
function tolerating(codes: readonly string[], rules: readonly string[]): ServiceFaultImplementation {
  return {
    wfm: (base) => ({
      verifiesChainAtHandshake: false,
      toleratesChainError: (code) => codes.includes(code) || base.toleratesChainError(code),
      overlooksSvidRule: (rule) => rules.includes(rule) || base.overlooksSvidRule(rule),
    }),
  };
}

/** A WFM that never judges one rule of spec/rules/svid-leaf.ts. */
const overlooking = (rule: string): ServiceFaultImplementation => ({
  wfm: (base) => ({ overlooksSvidRule: (r) => r === rule || base.overlooksSvidRule(r) }),
});

/** MIAF-CLIENT-IS-SPIFFE-ID: a client is bound to the first certificate it used, not to its SPIFFE ID. */
function boundToFirstCertificate(): ServiceFaultImplementation {
  return {
    wfm: (base) => {
      const bound = new WeakMap<Client, string>();
      return {
        acceptsCertificateOf: (client, fingerprint) => {
          if (fingerprint === undefined) return base.acceptsCertificateOf(client, fingerprint);
          if (!bound.has(client)) bound.set(client, fingerprint);
          return bound.get(client) === fingerprint && base.acceptsCertificateOf(client, fingerprint);
        },
      };
    },
  };
}

export const implementations: ServiceFaultTable = {
  // Mutual TLS and the SVID rules.
  // A connection without a client certificate is let in; its requests name no client (403).
  'MIAF-MTLS-EVERY-REQUEST': { wfm: () => ({ verifiesChainAtHandshake: false, admitsConnectionWithoutCertificate: true }) },
  'MIAF-TLS13-DEFAULT': { wfm: () => ({ offersTls13: false }) },
  'MIAF-HTTP11': { wfm: () => ({ statusLineVersion: 'HTTP/1.0' }) },
  'MIAF-NO-SIGNATURE-NEEDED': { wfm: () => ({ requiresSignatureOverMtls: true }) },
  'MIAF-SERVER-SVID': { wfm: () => ({ presentedWfmId: (wfmId) => `${wfmId}-other` }) },
  // A CA certificate also carries keyCertSign, so the fault reads neither.
  'SVID-LEAF-NOT-CA': tolerating(['INVALID_PURPOSE', 'INVALID_CA'], ['svid-leaf-ca', 'svid-leaf-cert-sign']),
  'SVID-LEAF-NO-CERT-SIGN': overlooking('svid-leaf-cert-sign'),
  // The first URI SAN counts.
  'SVID-ONE-URI-SAN': overlooking('svid-one-uri-san'),
  // The URI is never read as a SPIFFE ID: a leaf without one is named by its CN.
  'SVID-SPIFFE-SCHEME': {
    wfm: (base) => ({
      overlooksSvidRule: (rule) => rule === 'svid-spiffe-id' || base.overlooksSvidRule(rule),
      namesClientWithoutSpiffeIdByCn: true,
    }),
  },
  'SVID-NOT-EXPIRED': tolerating(['CERT_HAS_EXPIRED'], ['svid-validity']),
  'SVID-TRUST-DOMAIN': { wfm: () => ({ comparesSvidTrustDomain: false }) },
  'SVID-WFM-ID': { wfm: () => ({ comparesSvidWfmId: false }) },
  // The WFM keeps the anchors it started with.
  'SVID-CHAIN-BUNDLE': { wfm: () => ({ followsTrustBundleRotation: false }) },
  // A DNS name beside the SPIFFE ID makes the certificate suspect.
  'SVID-NO-DNS-IDENTITY': { wfm: () => ({ refusesSvidWithDnsNames: true }) },
  'SVID-KEY-ALG-OPTIONAL': { wfm: () => ({ mapsOptionalKeyAlgorithms: false }) },
  // P-256, the mandatory key, is missing from the allow-list.
  'SVID-KEY-ALG': { wfm: (base) => ({ svidKeyAlgorithms: base.svidKeyAlgorithms.filter((k) => k !== 'P-256') }) },
  // Who the client is.
  'MIAF-CLIENT-IS-SPIFFE-ID': boundToFirstCertificate(),
  'MIAF-NOT-ADMITTED-403': { wfm: () => ({ admitsUnknownSpiffeIds: true }) },
  // A deviceId belongs to whichever client reported it first, across clients.
  'MIAF-SCOPE-PER-CLIENT': { wfm: () => ({ scopesDeviceIdsPerClient: false }) },
  // Capabilities.
  'MIAF-CAP-PATHS': { wfm: () => ({ takesPostAsPut: true }) },
  'MIAF-CAP-ROOT-CLOSED': { wfm: () => ({ closesCapabilitiesRoot: false }) },
  'MIAF-CAP-PROPS-REQUIRED': { wfm: () => ({ requiresCpus: true }) },
  'MIAF-ENUMS-CLOSED': { wfm: () => ({ checksEnumValues: false }) },
  // Desired state.
  'MIAF-DS-GET-200': { rewrite: () => on('GET', MANIFEST, (a) => (a.status === 200 ? { ...a, body: Buffer.from('{}') } : undefined)) },
  // The manifest is marked public, so a shared cache may hand it to another client.
  'MIAF-DS-CACHE-PRIVATE': { wfm: () => ({ manifestCacheControl: 'public' }) },
  'MIAF-DS-ETAG-QUOTED-DIGEST': {
    rewrite: () =>
      on('GET', MANIFEST, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, etag: unquoted(a.headers.etag) } } : undefined)),
  },
  'MIAF-DS-406-PROBLEM': {
    rewrite: () =>
      on('GET', MANIFEST, (a) => {
        if (a.status !== 406) return undefined;
        const problem = JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
        return { ...a, body: Buffer.from(JSON.stringify({ ...problem, type: 'about:blank' })) };
      }),
  },
  'MIAF-DS-FIRST-VERSION-1': versionsFromZero,
  'MIAF-DS-BUNDLE-NULL': emptyBundle,
  'MIAF-DEPLOYMENT-GET': {
    rewrite: () =>
      on('GET', DEPLOYMENT, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, 'content-type': 'text/plain' } } : undefined)),
  },
  // The YAML is served without immutable caching.
  'MIAF-DEPLOYMENT-CACHE': { wfm: () => ({ deploymentCacheControl: 'no-cache' }) },
  'MIAF-DEPLOYMENT-404': anyDeploymentDigest,
  'MIAF-BUNDLE-GET': {
    rewrite: () =>
      on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, etag: unquoted(a.headers.etag) } } : undefined)),
  },
  // Public, as the seed edition serves bundles.
  'MIAF-BUNDLE-CACHE': { wfm: () => ({ bundleCacheControl: () => IMMUTABLE_PUBLIC }) },
  'MIAF-PROFILE-TYPE': editingYaml((d) => void (d.spec.deploymentProfile.type = 'kustomize' as never)),
  'MIAF-REVISION-SEMVER': editingYaml((d) =>
    d.spec.deploymentProfile.components.forEach((c) => (c.properties.revision = `v${c.properties.revision}`)),
  ),
  'MIAF-TIMEOUT-FORMAT': editingYaml((d) => d.spec.deploymentProfile.components.forEach((c) => (c.properties.timeout = '330s'))),
  // Status.
  'MIAF-STATUS-POST': {
    rewrite: () => on('POST', STATUS, (a) => (a.status === 201 || a.status === 200 ? { ...a, status: 202 } : undefined)),
  },
  'MIAF-STATUS-REQUIRED': { wfm: () => ({ readsMissingStateAsInstalled: true }) },
  // Problem details.
  'PROBLEM-JSON': { wfm: () => ({ problemContentType: 'application/json' }) },
  // Reserved conditions answered about:blank; :missing leaves the type out altogether.
  'PROBLEM-RESERVED-TYPE': { wfm: () => ({ problemType: () => 'about:blank' }) },
  'PROBLEM-RESERVED-TYPE:missing': { wfm: () => ({ problemType: () => 'none' }) },
  // A condition without a reserved type is called invalid-request.
  'PROBLEM-ABOUT-BLANK': {
    wfm: (base) => ({ problemType: (reserved) => (reserved === undefined ? 'invalid-request' : base.problemType(reserved)) }),
  },
  'PROBLEM-422-ERRORS': { wfm: () => ({ listsFieldErrors: false }) },
  // The 429 of the rate limit comes without Retry-After.
  'PROBLEM-RETRY-AFTER': { wfm: () => ({ sendsRetryAfter: false }) },
  // Every refusal claims it may be retried.
  'PROBLEM-NOT-RETRYABLE': { wfm: () => ({ claimsRetryable: () => true }) },
};
