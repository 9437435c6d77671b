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
  /** The kit's faulty client only (simulators/faults/client-faults.ts): ids of the identity rules it breaks. */
  faults?: ReadonlySet<string>;
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
  /** Cache-Control of the last bundle answer: only client fault BUNDLE-REFRESH-NOT-DEFERRED lets it defer a refresh. */
  private bundleMaxAgeMs = 0;
  /** The first ETag ever seen of each resource: what client faults DISC-/BUNDLE-IF-NONE-MATCH send forever. */
  private readonly firstEtags: { discovery?: string; bundle?: string } = {};
  private readonly clock: () => number;
  private readonly faults: ReadonlySet<string>;

  constructor(private readonly opts: TrustBundleClientOptions) {
    this.clock = opts.clock ?? Date.now;
    this.faults = opts.faults ?? new Set();
    // Client fault DISC-OPERATOR-CONFIG: the operator-configured URI is never read.
    this.trustBundleUri = this.faults.has('DISC-OPERATOR-CONFIG') ? undefined : opts.trustBundleUri;
    if (opts.cached) this.restore(opts.cached);
  }

  /** The accepted bundle as the client caches it locally, or undefined before one is accepted. */
  snapshot(): CachedBundle | undefined {
    return this.bundle && this.anchors?.length ? { bundle: structuredClone(this.bundle), trustBundleUri: this.trustBundleUri, etag: this.bundleEtag } : undefined;
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
    const problems = [
      ...discoveryFindings(doc).filter((f) => !(this.faults.has('BUNDLE-CLIENT-HTTPS-ONLY') && f.rule === 'discovery-trust-bundle-uri')),
      // Client fault BUNDLE-TRUSTDOMAIN-MATCH: the document's trust domain is never compared with the client's own.
      ...(doc && !this.faults.has('BUNDLE-TRUSTDOMAIN-MATCH') ? trustDomainFindings(doc as DiscoveryDocument, this.opts.ownSpiffeId) : []),
      // Client fault DISC-CLIENT-IGNORE-UNKNOWN: a document with a field §2.5 does not name is refused.
      ...(this.faults.has('DISC-CLIENT-IGNORE-UNKNOWN') ? unknownFields(doc, ['trustDomain', 'trustBundleUri']) : []),
    ];
    const uri = (doc as DiscoveryDocument | undefined)?.trustBundleUri;
    const covered = this.opts.coveredOrigins ?? [];
    if (problems.length === 0 && typeof uri === 'string' && covered !== 'tls') problems.push(...bundleOriginFindings(url, uri, covered));
    if (problems.length > 0) return { result: 'misconfigured', reason: problems[0]!.message };
    this.discoveryEtag = res.headers['etag'];
    this.firstEtags.discovery ??= this.discoveryEtag;
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

  /** Rule 4, or the one way each refresh fault bends it. */
  private refreshDelay(): number {
    const hinted = typeof this.bundle?.spiffe_refresh_hint === 'number';
    // Client fault BUNDLE-REFRESH-HINT: the hint is ignored, the operator interval rules.
    if (this.faults.has('BUNDLE-REFRESH-HINT')) return this.opts.operatorIntervalMs;
    // Client fault BUNDLE-REFRESH-CONFIGURED: without a hint there is no cadence at all.
    if (this.faults.has('BUNDLE-REFRESH-CONFIGURED') && !hinted) return NEVER_MS;
    const delay = refreshDelayMs(this.bundle, this.opts.operatorIntervalMs);
    // Client fault BUNDLE-REFRESH-NOT-DEFERRED: HTTP caching defers the refresh the cadence asks for.
    return this.faults.has('BUNDLE-REFRESH-NOT-DEFERRED') ? Math.max(delay, this.bundleMaxAgeMs) : delay;
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
    if (!isHttpsUri(uri) && !this.faults.has('BUNDLE-CLIENT-HTTPS-ONLY')) return { result: 'misconfigured', reason: `§4.6: trustBundleUri ${JSON.stringify(uri)} is not https; rejected` };
    let res;
    try {
      res = await this.opts.fetch(uri, this.conditional('bundle', this.anchors ? this.bundleEtag : undefined));
    } catch (e) {
      // Client fault BUNDLE-OFFLINE-KEEP-CACHED: an unreachable endpoint throws the cached bundle away.
      if (this.faults.has('BUNDLE-OFFLINE-KEEP-CACHED')) this.forget();
      return { result: 'unreachable', reason: `§4.6 rule 5: bundle endpoint unreachable (${(e as Error).message}); keeping the cached bundle` };
    }
    if (res.status === 304 && this.anchors) return { result: 'not-modified' };
    if (res.status !== 200) {
      // Client fault BUNDLE-KEEP-CURRENT: a failed retrieval throws the current bundle away.
      if (this.faults.has('BUNDLE-KEEP-CURRENT')) this.forget();
      return { result: 'unreachable', reason: `§4.6 rule 5: bundle endpoint answered ${res.status}; keeping the cached bundle` };
    }
    const bundle = this.bent(parseJson(res.body));
    // Client fault BUNDLE-CLIENT-TOLERATE-UNKNOWN: a bundle with a member §2.6 does not name is refused.
    const unknown = this.faults.has('BUNDLE-CLIENT-TOLERATE-UNKNOWN') ? unknownFields(bundle, ['spiffe_sequence', 'spiffe_refresh_hint', 'keys']) : [];
    if (unknown.length > 0) return { result: 'rejected', reason: unknown[0]!.message };
    const outcome = applyRetrieval(this.anchors, bundle === undefined ? { ok: false, error: 'body is not JSON' } : { ok: true, bundle });
    if (!outcome.changed) {
      // Client fault BUNDLE-REJECT-NO-ANCHORS: a bundle without an X.509 anchor is taken: no anchors at all.
      if (this.faults.has('BUNDLE-REJECT-NO-ANCHORS') && isObject(bundle) && Array.isArray(bundle['keys'])) {
        this.anchors = [];
        this.bundle = bundle as unknown as TrustBundle;
        this.bundleEtag = res.headers['etag'];
        return { result: 'accepted', anchors: 0 };
      }
      return { result: 'rejected', reason: outcome.reason ?? '§4.6 rule 2: retrieval rejected' };
    }
    // Rules 2 and 5 above: a failed or rejected retrieval changed nothing. Rule 3: acceptance replaces every anchor.
    // Client fault BUNDLE-NO-COMBINE: the new anchors are added to the old ones.
    const kept = this.faults.has('BUNDLE-NO-COMBINE') ? (this.anchors ?? []).filter((a) => !outcome.anchors!.some((b) => b.x5c === a.x5c)) : [];
    this.anchors = [...kept, ...outcome.anchors!];
    this.bundle = bundle as TrustBundle;
    this.bundleEtag = res.headers['etag'];
    this.firstEtags.bundle ??= this.bundleEtag;
    this.bundleMaxAgeMs = maxAgeMs(res.headers['cache-control']);
    return { result: 'accepted', anchors: this.anchors.length };
  }

  /** Only client faults lose the bundle in use. */
  private forget(): void {
    this.anchors = undefined;
    this.bundle = undefined;
  }

  /** Client fault BUNDLE-IGNORE-NON-X509: every key with a certificate is taken as an x509-svid anchor, whatever its use. */
  private bent(bundle: unknown): unknown {
    if (!this.faults.has('BUNDLE-IGNORE-NON-X509') || !isObject(bundle) || !Array.isArray(bundle['keys'])) return bundle;
    return { ...bundle, keys: (bundle['keys'] as unknown[]).map((k) => (isObject(k) && Array.isArray(k['x5c']) ? { ...k, use: 'x509-svid' } : k)) };
  }

  /** §4.5, §4.6: Accept application/json, and If-None-Match with the ETag of the last retrieved document. */
  private conditional(resource: 'discovery' | 'bundle', etag: string | undefined): Record<string, string> {
    const tag = resource === 'discovery' ? 'DISC' : 'BUNDLE';
    // Client faults DISC-ACCEPT-JSON and BUNDLE-ACCEPT-JSON: a browser's Accept.
    const accept = this.faults.has(`${tag}-ACCEPT-JSON`) ? 'text/html' : 'application/json';
    // Client faults DISC-IF-NONE-MATCH and BUNDLE-IF-NONE-MATCH: the first ETag ever seen, not the last.
    const sent = etag !== undefined && this.faults.has(`${tag}-IF-NONE-MATCH`) ? this.firstEtags[resource] : etag;
    return sent === undefined ? { accept } : { accept, 'if-none-match': sent };
  }
}

/** A cadence that never comes (client fault BUNDLE-REFRESH-CONFIGURED). */
const NEVER_MS = 1e12;

function maxAgeMs(cacheControl: string | undefined): number {
  const m = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl ?? '');
  return m ? Number(m[1]) * 1000 : 0;
}

function unknownFields(doc: unknown, known: string[]): { message: string }[] {
  if (typeof doc !== 'object' || doc === null) return [];
  return Object.keys(doc).filter((k) => !known.includes(k)).map((k) => ({ message: `unknown field ${k} refused` }));
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
