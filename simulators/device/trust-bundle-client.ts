// The trust bundle client of interfaces.md §4.5-§4.6 (rules 1-7) over any fetch function: discovery (optional),
// https-only bundle URI, conditional GETs, accept-or-keep (never merge), and a refresh cadence HTTP caching never defers.
import {
  applyRetrieval,
  bundleOriginFindings,
  discoveryFindings,
  isHttpsUri,
  trustDomainFindings,
  type Anchor,
} from '../../spec/rules/trust-bundle.ts';
import type { DiscoveryDocument, TrustBundle } from '../../spec/types.ts';
import { cleanTrustBundleDecisions, type IdentityResource, type TrustBundleDecisions } from './decisions/index.ts';

/** A GET with headers; throwing means the endpoint could not be reached. The Transport's HttpResponse fits. */
export type BundleFetch = (
  url: string,
  headers: Record<string, string>,
) => Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }>;

export interface TrustBundleClientOptions {
  fetch: BundleFetch;
  /** §4.5: the discovery document's URL; without it the bundle URI comes from `trustBundleUri`. */
  discoveryUrl?: string;
  /** Operator configuration (§4.5: "without discovery, the trust bundle URI comes from operator configuration"). */
  trustBundleUri?: string;
  /** §4.6 rule 4: the cadence when the bundle carries no spiffe_refresh_hint. */
  operatorIntervalMs: number;
  /** §4.6 rule 6: the client's own SPIFFE ID, when it holds an SVID. */
  ownSpiffeId?: string;
  /**
   * §4.6 rule 7: origins the client's initial-trust material covers besides the discovery origin (pins), or 'tls':
   * the material is a CA set the fetch's TLS verifies, so any origin whose certificate chains to it is covered.
   */
  coveredOrigins?: string[] | 'tls';
  clock?: () => number;
  /**
   * §4.6 rule 5: the bundle the client cached locally before a restart (snapshot()). It is used at once, before any
   * retrieval, so the client still validates when the endpoint cannot be reached.
   */
  cached?: CachedBundle;
  /** What the client decides; default the clean client's (a faulty one replaces single decisions, simulators/faults/). */
  decisions?: TrustBundleDecisions;
}

/** What a client keeps of its accepted bundle on its own disk (§4.6 rule 5). */
export interface CachedBundle {
  bundle: TrustBundle;
  trustBundleUri: string | undefined;
  etag: string | undefined;
}

export type RefreshOutcome =
  | { result: 'accepted'; anchors: number }
  | { result: 'not-modified' }
  | { result: 'rejected'; reason: string }
  | { result: 'unreachable'; reason: string }
  | { result: 'misconfigured'; reason: string };

export class TrustBundleClient {
  /** The anchors SVIDs are validated against; undefined until a bundle is accepted (fail closed). */
  anchors: Anchor[] | undefined;
  bundle: TrustBundle | undefined;
  trustBundleUri: string | undefined;
  /** When the cadence of rule 4 next asks for a retrieval (clock milliseconds). */
  nextRefreshAt = 0;
  private bundleEtag: string | undefined;
  private discoveryEtag: string | undefined;
  /** Cache-Control max-age of the last bundle answer: rule 4 never lets it defer a refresh (decision refreshDelay). */
  private bundleMaxAgeMs = 0;
  private readonly clock: () => number;
  private readonly decisions: TrustBundleDecisions;

  constructor(private readonly opts: TrustBundleClientOptions) {
    this.clock = opts.clock ?? Date.now;
    this.decisions = opts.decisions ?? cleanTrustBundleDecisions;
    this.trustBundleUri = this.decisions.readsOperatorBundleUri ? opts.trustBundleUri : undefined;
    if (opts.cached) this.restore(opts.cached);
  }

  /** The accepted bundle as the client caches it locally, or undefined before one is accepted. */
  snapshot(): CachedBundle | undefined {
    return this.bundle && this.anchors?.length
      ? { bundle: structuredClone(this.bundle), trustBundleUri: this.trustBundleUri, etag: this.bundleEtag }
      : undefined;
  }

  /** A cached bundle is judged by the rules of a retrieved one (a cache may be stale or damaged, never trusted blindly). */
  private restore(cached: CachedBundle): void {
    const outcome = applyRetrieval(undefined, { ok: true, bundle: cached.bundle });
    if (!outcome.changed) return;
    this.anchors = outcome.anchors!;
    this.bundle = cached.bundle;
    this.bundleEtag = cached.etag;
    this.trustBundleUri ??= cached.trustBundleUri;
  }

  /** §4.5: reads the discovery document when one is configured; a 404 keeps the operator-configured URI. */
  async discover(): Promise<RefreshOutcome | undefined> {
    const url = this.opts.discoveryUrl;
    if (url === undefined) return undefined;
    let res;
    try {
      res = await this.opts.fetch(url, this.conditional('discovery', this.discoveryEtag));
    } catch (e) {
      return { result: 'unreachable', reason: `§4.5: discovery unreachable (${(e as Error).message})` };
    }
    if (res.status === 304) return { result: 'not-modified' };
    if (res.status === 404) return undefined;
    if (res.status !== 200) return { result: 'unreachable', reason: `§4.5: discovery answered ${res.status}` };
    const doc = parseJson(res.body);
    // §2.5: unknown fields are ignored; only the two known ones are judged.
    const d = this.decisions;
    const problems = [
      ...discoveryFindings(doc).filter((f) => d.requiresHttpsBundleUri || f.rule !== 'discovery-trust-bundle-uri'),
      ...(doc && d.comparesTrustDomain ? trustDomainFindings(doc as DiscoveryDocument, this.opts.ownSpiffeId) : []),
      ...(d.refusesUnknownDiscoveryFields ? unknownFields(doc, ['trustDomain', 'trustBundleUri']) : []),
    ];
    const uri = (doc as DiscoveryDocument | undefined)?.trustBundleUri;
    const covered = this.opts.coveredOrigins ?? [];
    if (problems.length === 0 && typeof uri === 'string' && covered !== 'tls') problems.push(...bundleOriginFindings(url, uri, covered));
    if (problems.length > 0) return { result: 'misconfigured', reason: problems[0]!.message };
    this.discoveryEtag = res.headers['etag'];
    d.identityEtagReceived('discovery', this.discoveryEtag);
    if (uri !== this.trustBundleUri) this.bundleEtag = undefined;
    this.trustBundleUri = uri;
    return undefined;
  }

  /** One retrieval (§4.6): whatever happens, the next one is scheduled by rule 4 from the bundle in use. */
  async refresh(): Promise<RefreshOutcome> {
    try {
      return await this.retrieve();
    } finally {
      this.nextRefreshAt = this.clock() + this.refreshDelay();
    }
  }

  /** Rule 4. */
  private refreshDelay(): number {
    return this.decisions.refreshDelay(this.bundle, this.opts.operatorIntervalMs, this.bundleMaxAgeMs);
  }

  isDue(): boolean {
    return this.clock() >= this.nextRefreshAt;
  }

  async refreshIfDue(): Promise<RefreshOutcome | undefined> {
    return this.isDue() ? this.refresh() : undefined;
  }

  private async retrieve(): Promise<RefreshOutcome> {
    const d = this.decisions;
    const discovered = await this.discover();
    // A misconfiguration stops here; an unreachable discovery still lets a known bundle URI be tried.
    if (discovered?.result === 'misconfigured') return discovered;
    if (discovered?.result === 'unreachable' && this.trustBundleUri === undefined) return discovered;
    const uri = this.trustBundleUri;
    if (uri === undefined)
      return { result: 'misconfigured', reason: '§4.5: no discovery document and no operator-configured trust bundle URI' };
    if (!isHttpsUri(uri) && d.requiresHttpsBundleUri)
      return { result: 'misconfigured', reason: `§4.6: trustBundleUri ${JSON.stringify(uri)} is not https; rejected` };
    let res;
    try {
      res = await this.opts.fetch(uri, this.conditional('bundle', this.anchors ? this.bundleEtag : undefined));
    } catch (e) {
      if (!d.keepsBundleWhen('unreachable')) this.forget();
      return {
        result: 'unreachable',
        reason: `§4.6 rule 5: bundle endpoint unreachable (${(e as Error).message}); keeping the cached bundle`,
      };
    }
    if (res.status === 304 && this.anchors) return { result: 'not-modified' };
    if (res.status !== 200) {
      if (!d.keepsBundleWhen('error-answer')) this.forget();
      return { result: 'unreachable', reason: `§4.6 rule 5: bundle endpoint answered ${res.status}; keeping the cached bundle` };
    }
    const bundle = d.bundleAsRead(parseJson(res.body));
    const unknown = d.refusesUnknownBundleMembers ? unknownFields(bundle, ['spiffe_sequence', 'spiffe_refresh_hint', 'keys']) : [];
    if (unknown.length > 0) return { result: 'rejected', reason: unknown[0]!.message };
    const outcome = applyRetrieval(this.anchors, bundle === undefined ? { ok: false, error: 'body is not JSON' } : { ok: true, bundle });
    if (!outcome.changed) {
      if (d.takesBundleWithoutAnchors && isObject(bundle) && Array.isArray(bundle['keys'])) {
        this.anchors = [];
        this.bundle = bundle as unknown as TrustBundle;
        this.bundleEtag = res.headers['etag'];
        return { result: 'accepted', anchors: 0 };
      }
      return { result: 'rejected', reason: outcome.reason ?? '§4.6 rule 2: retrieval rejected' };
    }
    // Rules 2 and 5 above: a failed or rejected retrieval changed nothing. Rule 3: acceptance replaces every anchor.
    const kept = d.replacesAnchors ? [] : (this.anchors ?? []).filter((a) => !outcome.anchors!.some((b) => b.x5c === a.x5c));
    this.anchors = [...kept, ...outcome.anchors!];
    this.bundle = bundle as TrustBundle;
    this.bundleEtag = res.headers['etag'];
    d.identityEtagReceived('bundle', this.bundleEtag);
    this.bundleMaxAgeMs = maxAgeMs(res.headers['cache-control']);
    return { result: 'accepted', anchors: this.anchors.length };
  }

  /** Only a faulty client loses the bundle in use (decision keepsBundleWhen). */
  private forget(): void {
    this.anchors = undefined;
    this.bundle = undefined;
  }

  /** §4.5, §4.6: Accept application/json, and If-None-Match with the ETag of the last retrieved document. */
  private conditional(resource: IdentityResource, etag: string | undefined): Record<string, string> {
    const accept = this.decisions.identityAccept(resource);
    const sent = this.decisions.identityRevalidationEtag(resource, etag);
    return sent === undefined ? { accept } : { accept, 'if-none-match': sent };
  }
}

function maxAgeMs(cacheControl: string | undefined): number {
  const m = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl ?? '');
  return m ? Number(m[1]) * 1000 : 0;
}

function unknownFields(doc: unknown, known: string[]): { message: string }[] {
  if (typeof doc !== 'object' || doc === null) return [];
  return Object.keys(doc)
    .filter((k) => !known.includes(k))
    .map((k) => ({ message: `unknown field ${k} refused` }));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return undefined;
  }
}
