// The reference identity role (interfaces.md §4.5, §4.6): discovery and trust bundle over HTTPS, read-only.
import { startListening } from '../../protocol/listen.ts';
import { isIP } from 'node:net';
import { withRewrites, type Rewrite } from '../faults/rewrite.ts';
import { createServer, type Server } from 'node:https';
import { guardServer, jsonError } from '../server-guards.ts';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { mediaTypes } from '../../spec/media-types.ts';
import type { TrustBundle } from '../../spec/types.ts';
import type { Issued } from '../../protocol/pki.ts';
import type { RotationPhase } from './anchors.ts';
import { cleanIdentityDecisions, type IdentityDecisions } from './decisions.ts';
import { serveDomain, type Resource, type ResourceKind, type ServedDomain } from './domains.ts';
import { issueFromCsr } from './svid-issuance.ts';

export interface IdentityOptions {
  /** DNS names clients reach it by (`wfmck serve --hostname`): a wildcard listen address's URLs name the first. */
  hostnames?: readonly string[];
  host?: string;
  port?: number;
  tls: { cert: string; key: string };
  /** P1: vendor token of the discovery path `/.well-known/<vendor>`. */
  vendor?: string;
  trustDomain?: string;
  refreshHintSeconds?: number;
  /** false: no discovery document at this origin (404); clients then get the bundle URI by configuration. */
  discovery?: boolean;
  /** Real bundles carry jwt-svid keys that X.509 clients must ignore (§2.6). */
  includeJwtSvidKey?: boolean;
  /** Further trust domains this origin serves, each with discovery at `/.well-known/<vendor>/<domain>` (§4.5 MAY). */
  extraTrustDomains?: string[];
  /** A trust domain (served like the extra ones, but never listed) whose documents withdrawIdentityDocument withdraws. */
  withdrawableTrustDomain?: string;
  /** What this identity role decides; default the clean one's (a faulty variant replaces single decisions, reference/faults/). */
  decisions?: IdentityDecisions;
  /** Rewrites of its answers (response-level faults of reference/faults/), applied in order. */
  rewrites?: readonly Rewrite[];
  /**
   * miaf (P10): the trust domain of the WFM and its clients, served (unlisted) at /.well-known/<vendor>/<domain>:
   * its anchors validate client SVIDs, `fixedAnchors` (the operator's, e.g. the kit's SVID CA) are never rotated,
   * and issueClientSvid mints from its newest rotating anchor.
   */
  deviceTrustDomain?: { trustDomain: string; fixedAnchors: Issued[] };
}

export interface IdentityService {
  /** Origin, https://127.0.0.1:<port>. */
  url: string;
  discoveryUrl: string;
  trustBundleUri: string;
  close(): Promise<void>;
  /** Discovery URLs of the extra trust domains, in the order given. */
  extraDiscoveryUrls: string[];
  hooks: {
    /** Rotates the main trust domain, or the one named (the device trust domain). */
    rotateTrustAnchor(input: { phase: RotationPhase; trustDomain?: string }): Promise<Record<string, never>>;
    /** P10: an X.509-SVID for `spiffeId` (of the device trust domain) on the CSR's key, from the newest anchor. */
    issueClientSvid(input: { spiffeId: string; csrPem: string }): Promise<{ certificateChainPem: string }>;
    /** Withdraws (404) or restores one document of the withdrawable trust domain; answers the URL it changed. */
    withdrawIdentityDocument(input: { resource: ResourceKind; withdrawn: boolean }): Promise<{ url: string }>;
  };
  /** Current x509-svid CAs with their private keys, oldest first. */
  authorities(): Issued[];
  /** The device trust domain (miaf), when served: its current anchors as PEM, and a callback on every change. */
  deviceDomain?: { trustDomain: string; discoveryUrl: string; anchorsPem(): string[]; onChange(listener: () => void): void };
  bundle(): TrustBundle;
  /** false: the bundle URI answers 404 `bundle unavailable` until set back to true. */
  bundleAvailable(available: boolean): void;
}

/** A request body is never read; at most this much is drained before the connection is closed. */
const BODY_CAP = 64 * 1024;
const ALLOW = 'GET, HEAD';

export async function startIdentity(opts: IdentityOptions): Promise<IdentityService> {
  const host = listenHost(opts.host ?? '127.0.0.1');
  const vendor = checked(opts.vendor ?? 'platform', /^[A-Za-z0-9._-]+$/, 'vendor token');
  // SPIFFE trust domain names: lowercase letters, digits, dots, dashes and underscores.
  const trustDomain = checked(opts.trustDomain ?? 'wfmck.test', /^[a-z0-9._-]+$/, 'trust domain');
  const refreshHint = opts.refreshHintSeconds ?? 300;
  if (!Number.isSafeInteger(refreshHint) || refreshHint < 1)
    throw new Error(`refreshHintSeconds must be a positive integer: ${refreshHint}`);
  const decisions = opts.decisions ?? cleanIdentityDecisions;
  const plain = !decisions.servesHttps;
  const server = plain ? createHttpServer() : createServer({ cert: opts.tls.cert, key: opts.tls.key });
  // It serves documents to GETs: no request of its needs long to arrive.
  guardServer(server, { requestTimeoutMs: 10_000, errorBody: jsonError('identity') });
  const { url } = await startListening(server, { scheme: plain ? 'http' : 'https', host, port: opts.port, hostnames: opts.hostnames });
  const discoveryPath = mediaTypes(vendor).discoveryPath;
  const resources = new Map<string, Resource>();
  const common = { origin: url, refreshHintSeconds: refreshHint, includeJwtSvidKey: opts.includeJwtSvidKey ?? true, decisions };
  const main = await serveDomain(resources, { ...common, trustDomain, discoveryPath, discovery: opts.discovery ?? true });
  const other = (td: string) =>
    serveDomain(resources, {
      ...common,
      trustDomain: checked(td, /^[a-z0-9._-]+$/, 'trust domain'),
      discoveryPath: `${discoveryPath}/${td}`,
      discovery: true,
    });
  const extras: ServedDomain[] = [];
  for (const td of opts.extraTrustDomains ?? []) extras.push(await other(td));
  const mainDocument = resources.get(discoveryPath);
  if (!decisions.servesEachDomainsDiscovery && mainDocument)
    for (const d of extras) resources.set(new URL(d.discoveryUrl).pathname, mainDocument);
  const withdrawable = opts.withdrawableTrustDomain === undefined ? undefined : await other(opts.withdrawableTrustDomain);
  const devices =
    opts.deviceTrustDomain &&
    (await serveDomain(resources, {
      ...common,
      trustDomain: checked(opts.deviceTrustDomain.trustDomain, /^[a-z0-9._-]+$/, 'trust domain'),
      discoveryPath: `${discoveryPath}/${opts.deviceTrustDomain.trustDomain}`,
      discovery: true,
      fixedAnchors: opts.deviceTrustDomain.fixedAnchors,
    }));
  const listeners: (() => void)[] = [];
  const domainNamed = (td: string | undefined): ServedDomain => {
    if (td === undefined || td === trustDomain) return main;
    if (devices && td === devices.trustDomain) return devices;
    throw new Error(
      `no rotatable trust domain ${JSON.stringify(td)} here (${[trustDomain, devices?.trustDomain].filter(Boolean).join(', ')})`,
    );
  };
  server.on(
    'request',
    withRewrites((req: IncomingMessage, res: ServerResponse) => void serve(resources, decisions, req, res), opts.rewrites ?? []),
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    discoveryUrl: main.discoveryUrl,
    trustBundleUri: main.trustBundleUri,
    extraDiscoveryUrls: extras.map((d) => d.discoveryUrl),
    close: () => (closing ??= closeServer(server)),
    hooks: {
      async rotateTrustAnchor(input) {
        const domain = domainNamed(input?.trustDomain);
        if ((await domain.anchors.rotate(input.phase)) && domain === devices) for (const l of listeners) l();
        return {};
      },
      async issueClientSvid(input) {
        if (!devices) throw new Error('issueClientSvid: this identity role serves no device trust domain (edition miaf)');
        return { certificateChainPem: await issueFromCsr(devices.anchors.newest(), devices.trustDomain, input) };
      },
      async withdrawIdentityDocument(input) {
        if (!withdrawable) throw new Error('withdrawIdentityDocument: this identity role has no withdrawable trust domain');
        if (input?.resource !== 'discovery' && input?.resource !== 'bundle')
          throw new Error('withdrawIdentityDocument: resource is "discovery" or "bundle"');
        if (typeof input.withdrawn !== 'boolean') throw new Error('withdrawIdentityDocument: withdrawn is a boolean');
        withdrawable.setAvailable(input.resource, !input.withdrawn);
        return { url: input.resource === 'discovery' ? withdrawable.discoveryUrl : withdrawable.trustBundleUri };
      },
    },
    authorities: () => main.anchors.authorities(),
    ...(devices && {
      deviceDomain: {
        trustDomain: devices.trustDomain,
        discoveryUrl: devices.discoveryUrl,
        anchorsPem: () => devices.anchors.authorities().map((a) => a.certPem),
        onChange: (listener: () => void) => void listeners.push(listener),
      },
    }),
    bundle: main.bundle,
    bundleAvailable: (value) => main.setAvailable('bundle', value),
  };
}

async function serve(
  resources: Map<string, Resource>,
  decisions: IdentityDecisions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const overflow = await drain(req);
    if (overflow === 'gone') return;
    if (overflow) {
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.destroy());
    }
    answer(resources, decisions, req, res);
  } catch {
    if (!res.headersSent) sendError(res, req.method === 'HEAD', 500, 'internal error');
    else res.destroy();
  }
}

/** Reads and discards the body: false when it ended within the cap, true past the cap, 'gone' if the client left. */
function drain(req: IncomingMessage): Promise<boolean | 'gone'> {
  return new Promise((resolve) => {
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > BODY_CAP) {
        req.pause();
        resolve(true);
      }
    });
    req.once('end', () => resolve(false));
    req.once('error', () => resolve('gone'));
    req.once('close', () => resolve(req.complete ? false : 'gone'));
  });
}

function answer(resources: Map<string, Resource>, decisions: IdentityDecisions, req: IncomingMessage, res: ServerResponse): void {
  const head = req.method === 'HEAD';
  // The query string names no other resource here; it is ignored like the body.
  const path = (req.url ?? '').split('?')[0]!;
  const resource = resources.get(path);
  if (!resource) return sendError(res, head, 404, 'not found');
  // A discovery document that is not read-only: a DELETE removes it.
  if (req.method === 'DELETE' && resource.kind === 'discovery' && !decisions.discoveryReadOnly)
    return void (resources.delete(path), res.writeHead(204).end());
  if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', ALLOW);
    return sendError(res, head, 405, `method ${req.method} not allowed; use ${ALLOW}`);
  }
  const current = resource.current();
  if (!current) return sendError(res, head, 404, resource.missing);
  // Accept SHOULD be application/json (§4.5) but nothing says to refuse other values, so it is not checked.
  // no-cache: HTTP caches must revalidate, so caching never defers the refresh cadence of §4.6 rule 4.
  res.setHeader('ETag', current.etag);
  res.setHeader('Cache-Control', 'no-cache');
  if (decisions.notModified(resource.kind, req.headers['if-none-match'], current.etag)) {
    res.writeHead(304).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': current.body.length });
  res.end(head ? undefined : current.body);
}

/** P6: error bodies are JSON `{error}`. */
function sendError(res: ServerResponse, head: boolean, status: number, error: string): void {
  const body = Buffer.from(JSON.stringify({ error }));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(head ? undefined : body);
}

function closeServer(server: Server | HttpServer): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}

/** An IP address (its URLs are built from it); beyond loopback only when `wfmck serve --listen` says so. */
function listenHost(host: string): string {
  if (isIP(host) === 0) throw new Error(`identity service listens on an IP address, not ${host}`);
  return host;
}

function checked(value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw new Error(`invalid ${what}: ${JSON.stringify(value)}`);
  return value;
}
