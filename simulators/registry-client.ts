// An OCI Distribution Spec client (interfaces.md §4.7): tags, manifests, blobs verified by digest (§2.7 rule 8),
// pushes, and the distribution token flow after a 401 Bearer challenge.
import { OCI_INDEX, OCI_MANIFEST } from '../spec/media-types.ts';
import { digestOf } from '../spec/rules/desired-state.ts';
import { bearerChallenge, nextLink } from '../protocol/header-params.ts';
import type { Exchange, HttpResponse, RequestOptions, Transport } from './transport/types.ts';
import { tokenOf, tokenRequestUrl } from '../protocol/token-flow.ts';

export type RegistryAuth =
  { kind: 'anonymous' } | { kind: 'basic'; username: string; password: string } | { kind: 'bearer'; token: string };

export interface RegistryClientOptions {
  transport: Transport;
  auth?: RegistryAuth;
  /** The registry origin; default the transport's base URL, else learnt from the first answer. */
  baseUrl?: string;
}

export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const DEFAULT_MANIFEST_ACCEPT = [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, DOCKER_MANIFEST_LIST].join(', ');
/** Tag pages followed before allTags gives up. */
export const MAX_TAG_PAGES = 1000;
const MAX_REDIRECTS = 3;
const SUPPORTED_DIGESTS = new Set(['sha256', 'sha512']);

/** The bytes do not hash to the digest they were asked by (§2.7 rule 8), or the digest cannot be checked here. */
export class DigestError extends Error {
  constructor(
    readonly code: 'WFMCK_E_DIGEST_MISMATCH' | 'WFMCK_E_DIGEST_UNSUPPORTED',
    readonly expected: string,
    readonly actual: string | undefined,
    readonly exchange: Exchange,
  ) {
    super(
      code === 'WFMCK_E_DIGEST_MISMATCH'
        ? `content digest mismatch: expected ${expected}, got ${actual}`
        : `cannot verify digest ${expected}: unsupported algorithm`,
    );
  }
}

export interface Pulled {
  response: HttpResponse;
  bytes: Uint8Array;
  /** Content-Type of the answer. */
  mediaType?: string;
  /** Docker-Content-Digest of the answer. */
  digest?: string;
}

export interface Pushed {
  ok: boolean;
  digest: string;
  /** HEAD said the registry already had it. */
  skipped: boolean;
  /** The last answer: the one that failed when `ok` is false. */
  response: HttpResponse;
}

export class RegistryClient {
  private readonly transport: Transport;
  private readonly auth: RegistryAuth;
  /** Undefined until known: a wrapped transport may hide its base URL, and then relative paths go to it. */
  private base: string | undefined;
  private token: string | undefined;

  constructor(opts: RegistryClientOptions) {
    this.transport = opts.transport;
    this.auth = opts.auth ?? { kind: 'anonymous' };
    const base = opts.baseUrl ?? (opts.transport as { baseUrl?: string }).baseUrl;
    this.base = base === undefined ? undefined : new URL(base).origin;
    if (this.auth.kind === 'bearer') this.token = this.auth.token;
  }

  async listTags(
    name: string,
    opts: { n?: number; last?: string } = {},
  ): Promise<{ response: HttpResponse; tags?: string[]; next?: string }> {
    const query = new URLSearchParams();
    if (opts.n !== undefined) query.set('n', String(opts.n));
    if (opts.last !== undefined) query.set('last', opts.last);
    const qs = query.size ? `?${query}` : '';
    return this.tagPage(this.url(`/v2/${name}/tags/list${qs}`));
  }

  /** Every tag, following `Link: rel="next"`; stops with a `problem` on an error, a loop, or too many pages. */
  async allTags(name: string, opts: { n?: number } = {}): Promise<{ tags: string[]; pages: HttpResponse[]; problem?: string }> {
    const tags: string[] = [];
    const pages: HttpResponse[] = [];
    const seen = new Set<string>();
    let page = await this.listTags(name, opts);
    for (;;) {
      pages.push(page.response);
      if (page.response.status !== 200 || !page.tags)
        return { tags, pages, problem: `HTTP ${page.response.status} on page ${pages.length}` };
      tags.push(...page.tags);
      if (page.next === undefined) return { tags, pages };
      if (seen.has(page.next)) return { tags, pages, problem: `Link rel="next" loops back to ${page.next}` };
      if (pages.length >= MAX_TAG_PAGES) return { tags, pages, problem: `more than ${MAX_TAG_PAGES} pages` };
      seen.add(page.next);
      page = await this.tagPage(page.next);
    }
  }

  /** Pulling by digest verifies the bytes against it. */
  async getManifest(name: string, reference: string, accept = DEFAULT_MANIFEST_ACCEPT): Promise<Pulled> {
    const response = await this.follow(this.url(`/v2/${name}/manifests/${reference}`), { accept });
    if (response.status === 200 && reference.includes(':')) verify(response, reference);
    return pulled(response);
  }

  /** §2.7 rule 8: a 200 is returned only when the bytes hash to `digest`; otherwise a DigestError. */
  /** `verify: false` is for the kit's client fault COMPOSE-VERIFY-DIGEST only: every real pull verifies. */
  async getBlob(name: string, digest: string, opts: { maxBytes?: number; verify?: boolean } = {}): Promise<Pulled> {
    const response = await this.follow(this.url(`/v2/${name}/blobs/${digest}`), {}, opts.maxBytes);
    if (response.status === 200 && opts.verify !== false) verify(response, digest);
    return pulled(response);
  }

  headBlob(name: string, digest: string): Promise<HttpResponse> {
    return this.send({ method: 'HEAD', url: this.url(`/v2/${name}/blobs/${digest}`), retry: 'idempotent' });
  }

  /** Monolithic POST then PUT, or PATCH chunks of `chunkSize` with Content-Range; skipped when HEAD finds it. */
  async pushBlob(name: string, bytes: Uint8Array, opts: { chunkSize?: number } = {}): Promise<Pushed> {
    const digest = digestOf(bytes);
    const head = await this.headBlob(name, digest);
    if (head.status === 200) return { ok: true, digest, skipped: true, response: head };
    let response = await this.send({ method: 'POST', url: this.url(`/v2/${name}/blobs/uploads/`) });
    if (response.status !== 202) return { ok: false, digest, skipped: false, response };
    let location = this.location(response);
    const octets = { 'content-type': 'application/octet-stream' };
    const chunkSize = opts.chunkSize;
    if (chunkSize !== undefined && chunkSize > 0) {
      for (let start = 0; start < bytes.length; start += chunkSize) {
        const chunk = bytes.subarray(start, Math.min(bytes.length, start + chunkSize));
        const range = `${start}-${start + chunk.length - 1}`;
        response = await this.send({ method: 'PATCH', url: location, headers: { ...octets, 'content-range': range }, body: chunk });
        if (response.status !== 202) return { ok: false, digest, skipped: false, response };
        location = this.location(response, location);
      }
      response = await this.send({ method: 'PUT', url: withDigest(location, digest) });
    } else {
      response = await this.send({ method: 'PUT', url: withDigest(location, digest), headers: octets, body: bytes });
    }
    return { ok: response.status === 201, digest, skipped: false, response };
  }

  pushManifest(name: string, reference: string, bytes: Uint8Array, mediaType: string): Promise<HttpResponse> {
    const url = this.url(`/v2/${name}/manifests/${reference}`);
    return this.send({ method: 'PUT', url, headers: { 'content-type': mediaType }, body: bytes, retry: 'idempotent' });
  }

  private async tagPage(url: string): Promise<{ response: HttpResponse; tags?: string[]; next?: string }> {
    const response = await this.send({ method: 'GET', url, retry: 'idempotent' });
    if (response.status !== 200) return { response };
    let tags: unknown;
    try {
      tags = (response.json() as { tags?: unknown } | null)?.tags;
    } catch {
      return { response };
    }
    const next = nextLink(response.headers['link'], response.exchange.url);
    return { response, ...(Array.isArray(tags) ? { tags: tags.map(String) } : {}), ...(next ? { next } : {}) };
  }

  /** GET following a few redirects (blob storage often lives elsewhere); credentials stay with the registry. */
  private async follow(url: string, headers: Record<string, string>, maxResponseBytes?: number): Promise<HttpResponse> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await this.send({
        method: 'GET',
        url: target,
        headers,
        retry: 'idempotent',
        ...(maxResponseBytes ? { maxResponseBytes } : {}),
      });
      const location = response.headers['location'];
      if (![301, 302, 303, 307, 308].includes(response.status) || !location || hop >= MAX_REDIRECTS) return response;
      target = new URL(location, response.exchange.url).href;
    }
  }

  /** Sends with credentials for the registry origin; a 401 Bearer challenge fetches a token and retries once. */
  private async send(req: RequestOptions): Promise<HttpResponse> {
    const response = await this.transport.request({ ...req, headers: { ...req.headers, ...this.credentials(req.url) } });
    const origin = new URL(response.exchange.url).origin;
    this.base ??= origin;
    const challenge =
      response.status === 401 && this.auth.kind !== 'bearer' ? bearerChallenge(response.headers['www-authenticate']) : undefined;
    if (!challenge?.['realm'] || origin !== this.base) return response;
    const token = await this.fetchToken(challenge);
    if (token === undefined) return response;
    this.token = token;
    return this.transport.request({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } });
  }

  /** Distribution token spec: GET realm?service&scope, with basic credentials when configured; `token` or `access_token`. */
  private async fetchToken(challenge: Record<string, string>): Promise<string | undefined> {
    const realm = tokenRequestUrl(challenge);
    if (!realm) return undefined;
    const headers = this.auth.kind === 'basic' ? { authorization: basic(this.auth.username, this.auth.password) } : undefined;
    const response = await this.transport.request({ method: 'GET', url: realm.href, retry: 'idempotent', ...(headers ? { headers } : {}) });
    if (response.status !== 200) return undefined;
    try {
      return tokenOf(response.json());
    } catch {
      return undefined;
    }
  }

  private credentials(url: string): Record<string, string> {
    if (isAbsolute(url) && this.base !== undefined && new URL(url).origin !== this.base) return {};
    if (this.token !== undefined) return { authorization: `Bearer ${this.token}` };
    if (this.auth.kind === 'basic') return { authorization: basic(this.auth.username, this.auth.password) };
    return {};
  }

  private url(path: string): string {
    return this.base === undefined ? path : new URL(path, this.base).href;
  }

  /** The upload session URL of a 202, relative to the request or absolute. */
  private location(response: HttpResponse, previous?: string): string {
    const location = response.headers['location'];
    return location ? new URL(location, response.exchange.url).href : (previous ?? response.exchange.url);
  }
}

function verify(response: HttpResponse, expected: string): void {
  const algorithm = expected.split(':', 1)[0]!;
  if (!SUPPORTED_DIGESTS.has(algorithm)) throw new DigestError('WFMCK_E_DIGEST_UNSUPPORTED', expected, undefined, response.exchange);
  const actual = digestOf(response.body, algorithm);
  if (actual !== expected) throw new DigestError('WFMCK_E_DIGEST_MISMATCH', expected, actual, response.exchange);
}

function pulled(response: HttpResponse): Pulled {
  const { 'content-type': mediaType, 'docker-content-digest': digest } = response.headers;
  return { response, bytes: response.body, ...(mediaType ? { mediaType } : {}), ...(digest ? { digest } : {}) };
}

/** Appends `digest=` to an upload URL that may already carry a query (the colon stays as is). */
function withDigest(location: string, digest: string): string {
  const url = new URL(location);
  url.search = `${url.search ? `${url.search}&` : '?'}digest=${digest}`;
  return url.href;
}

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}
