// The trust bundle client of interfaces.md §4.5-§4.6 (rules 1-7) over any fetch function: discovery (optional),
// https-only bundle URI, conditional GETs, accept-or-keep (never merge), and a refresh cadence HTTP caching never defers.
import { applyRetrieval, bundleOriginFindings, discoveryFindings, isHttpsUri, refreshDelayMs, trustDomainFindings, type Anchor } from '../../spec/rules/trust-bundle.ts';
import type { DiscoveryDocument, TrustBundle } from '../../spec/types.ts';

/** A GET with headers; throwing means the endpoint could not be reached. The Transport's HttpResponse fits. */
export type BundleFetch = (url: string, headers: Record<string, string>) => Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }>;

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
  /** §4.6 rule 7: origins the client's initial-trust material covers besides the discovery origin. */
  coveredOrigins?: string[];
  clock?: () => number;
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
  private readonly clock: () => number;

  constructor(private readonly opts: TrustBundleClientOptions) {
    this.clock = opts.clock ?? Date.now;
    this.trustBundleUri = opts.trustBundleUri;
  }

  /** §4.5: reads the discovery document when one is configured; a 404 keeps the operator-configured URI. */
  async discover(): Promise<RefreshOutcome | undefined> {
    const url = this.opts.discoveryUrl;
    if (url === undefined) return undefined;
    let res;
    try {
      res = await this.opts.fetch(url, this.conditional(this.discoveryEtag));
    } catch (e) {
      return { result: 'unreachable', reason: `§4.5: discovery unreachable (${(e as Error).message})` };
    }
    if (res.status === 304) return { result: 'not-modified' };
    if (res.status === 404) return undefined;
    if (res.status !== 200) return { result: 'unreachable', reason: `§4.5: discovery answered ${res.status}` };
    const doc = parseJson(res.body);
    // §2.5: unknown fields are ignored; only the two known ones are judged.
    const problems = [...discoveryFindings(doc), ...(doc ? trustDomainFindings(doc as DiscoveryDocument, this.opts.ownSpiffeId) : [])];
    const uri = (doc as DiscoveryDocument | undefined)?.trustBundleUri;
    if (problems.length === 0 && typeof uri === 'string') problems.push(...bundleOriginFindings(url, uri, this.opts.coveredOrigins ?? []));
    if (problems.length > 0) return { result: 'misconfigured', reason: problems[0]!.message };
    this.discoveryEtag = res.headers['etag'];
    if (uri !== this.trustBundleUri) this.bundleEtag = undefined;
    this.trustBundleUri = uri;
    return undefined;
  }

  /** One retrieval (§4.6): whatever happens, the next one is scheduled by rule 4 from the bundle in use. */
  async refresh(): Promise<RefreshOutcome> {
    try {
      return await this.retrieve();
    } finally {
      this.nextRefreshAt = this.clock() + refreshDelayMs(this.bundle, this.opts.operatorIntervalMs);
    }
  }

  /** Rule 4: the cadence alone decides; Cache-Control and Expires of the answers are never consulted. */
  isDue(): boolean {
    return this.clock() >= this.nextRefreshAt;
  }

  async refreshIfDue(): Promise<RefreshOutcome | undefined> {
    return this.isDue() ? this.refresh() : undefined;
  }

  private async retrieve(): Promise<RefreshOutcome> {
    const discovered = await this.discover();
    // A misconfiguration stops here; an unreachable discovery still lets a known bundle URI be tried.
    if (discovered?.result === 'misconfigured') return discovered;
    if (discovered?.result === 'unreachable' && this.trustBundleUri === undefined) return discovered;
    const uri = this.trustBundleUri;
    if (uri === undefined) return { result: 'misconfigured', reason: '§4.5: no discovery document and no operator-configured trust bundle URI' };
    if (!isHttpsUri(uri)) return { result: 'misconfigured', reason: `§4.6: trustBundleUri ${JSON.stringify(uri)} is not https; rejected` };
    let res;
    try {
      res = await this.opts.fetch(uri, this.conditional(this.anchors ? this.bundleEtag : undefined));
    } catch (e) {
      return { result: 'unreachable', reason: `§4.6 rule 5: bundle endpoint unreachable (${(e as Error).message}); keeping the cached bundle` };
    }
    if (res.status === 304 && this.anchors) return { result: 'not-modified' };
    if (res.status !== 200) return { result: 'unreachable', reason: `§4.6 rule 5: bundle endpoint answered ${res.status}; keeping the cached bundle` };
    const bundle = parseJson(res.body);
    const outcome = applyRetrieval(this.anchors, bundle === undefined ? { ok: false, error: 'body is not JSON' } : { ok: true, bundle });
    if (!outcome.changed) return { result: 'rejected', reason: outcome.reason ?? '§4.6 rule 2: retrieval rejected' };
    // Rules 2 and 5 above: a failed or rejected retrieval changed nothing. Rule 3: acceptance replaces every anchor.
    this.anchors = outcome.anchors;
    this.bundle = bundle as TrustBundle;
    this.bundleEtag = res.headers['etag'];
    return { result: 'accepted', anchors: outcome.anchors!.length };
  }

  private conditional(etag: string | undefined): Record<string, string> {
    return etag === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'if-none-match': etag };
  }
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return undefined;
  }
}
