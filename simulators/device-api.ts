// The Device API as a device client calls it (interfaces.md §4.1-§4.4, profiles.md P2-P4), over any Transport.
// Every method returns the answer whatever its status (suites judge statuses) and throws only TransportError.
import { mediaTypes } from '../spec/media-types.ts';
import { deviceApiPaths, type Profile } from '../spec/profile.ts';
import type { DeploymentStatusReport, DeviceCapabilities, OnboardingRequest } from '../spec/types.ts';
import { X509Certificate } from 'node:crypto';
import type { HttpResponse, RequestOptions, RequestSigner, Transport } from './transport/types.ts';

/** A document, or raw bytes/text sent as they are (malformed input travels the same path). */
export type Payload<T> = T | string | Uint8Array;

export interface DeviceApiClientOptions {
  transport: Transport;
  profile: Profile;
  /** The device's key (P3); used when `profile.deviceAuth` is `signature`. */
  signer?: RequestSigner;
  clientId?: string;
  /** Base for relative URLs of state manifests; default the transport's own base URL. */
  baseUrl?: string;
  /** GET, PUT and DELETE retry connection failures and 429/502/503/504 unless `never`; POST never retries. */
  retry?: 'never' | 'idempotent';
  /**
   * Client faults only (simulators/faults/): which requests go unsigned although the profile signs them, the
   * onboarding (ONB-SIGNED) or every one after it (SIG-DEVICE-API-SIGNED).
   */
  unsigned?: 'onboarding' | 'after-onboarding';
}

export interface CallOptions {
  /** Extra or replacement request headers (e.g. a wrong Content-Type on purpose). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RootCa {
  response: HttpResponse;
  /** PEM text of the WFM root CA; undefined when the answer does not carry one (see `problem`). */
  pem?: string;
  problem?: string;
}

export class DeviceApiClient {
  clientId: string | undefined;
  readonly profile: Profile;
  private readonly transport: Transport;
  private readonly signer: RequestSigner | undefined;
  private readonly baseUrl: string | undefined;
  private readonly retry: 'never' | 'idempotent';
  private readonly paths: ReturnType<typeof deviceApiPaths>;
  private readonly unsigned: DeviceApiClientOptions['unsigned'];

  constructor(opts: DeviceApiClientOptions) {
    this.transport = opts.transport;
    this.profile = opts.profile;
    this.signer = opts.signer;
    this.clientId = opts.clientId;
    this.baseUrl = opts.baseUrl ?? (opts.transport as { baseUrl?: string }).baseUrl;
    this.retry = opts.retry ?? 'idempotent';
    this.paths = deviceApiPaths(opts.profile);
    this.unsigned = opts.unsigned;
  }

  /** P2: the Certificate API, unauthenticated; `{certificate}` is base64 of a PEM or DER certificate. */
  async fetchRootCa(opts: CallOptions = {}): Promise<RootCa> {
    const response = await this.call({ method: 'GET', url: this.paths.certificate, retry: this.retry }, opts, false);
    if (response.status !== 200) return { response, problem: `HTTP ${response.status}` };
    return { response, ...rootCaOf(response) };
  }

  /**
   * §4.3: a string is the base64 certificate, wrapped in an OnboardingRequest; an object or bytes is the body as is.
   * A 201 with a clientId makes it this client's.
   */
  async onboard(
    certificate: string | Record<string, unknown> | Uint8Array,
    opts: CallOptions = {},
  ): Promise<{ response: HttpResponse; clientId?: string }> {
    const body: Payload<object> =
      typeof certificate === 'string'
        ? ({ apiVersion: 'v1', kind: 'OnboardingRequest', certificate } satisfies OnboardingRequest)
        : certificate;
    const response = await this.call({ method: 'POST', url: this.paths.onboarding, ...payload(body) }, opts);
    const clientId = response.status === 201 ? clientIdOf(response) : undefined;
    if (clientId !== undefined) this.clientId = clientId;
    return { response, ...(clientId !== undefined ? { clientId } : {}) };
  }

  /** §4.1: 201 created, 200 updated, or a refusal. */
  putCapabilities(deviceId: string, doc: Payload<DeviceCapabilities>, opts: CallOptions = {}): Promise<HttpResponse> {
    return this.call({ method: 'PUT', url: this.paths.capabilities(deviceId, this.clientId), retry: this.retry, ...payload(doc) }, opts);
  }

  /** §4.2 */
  deleteCapabilities(deviceId: string, opts: CallOptions & { body?: DeviceCapabilities } = {}): Promise<HttpResponse> {
    // `body` only for the client fault CAP-DELETE-NO-BODY: §4.2 sends none.
    const withBody = opts.body === undefined ? {} : payload(opts.body);
    return this.call({ method: 'DELETE', url: this.paths.capabilities(deviceId, this.clientId), retry: this.retry, ...withBody }, opts);
  }

  /** P4: the state manifest; `etag` is sent as If-None-Match, `accept` defaults to the vendor manifest type. */
  getDesiredState(clientId = this.clientId, opts: CallOptions & { etag?: string; accept?: string } = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: opts.accept ?? mediaTypes(this.profile.vendor).stateManifest };
    if (opts.etag !== undefined) headers['if-none-match'] = opts.etag;
    const url = this.paths.desiredState(clientId ?? '');
    return this.call({ method: 'GET', url, retry: this.retry }, { ...opts, headers: { ...headers, ...opts.headers } });
  }

  /** P4: `deployments[].url` of a state manifest, relative or absolute. */
  getDeploymentYaml(url: string, opts: CallOptions = {}): Promise<HttpResponse> {
    return this.call({ method: 'GET', url: this.resolve(url), retry: this.retry }, opts);
  }

  /** P4: `bundle.url` of a state manifest, relative or absolute. */
  getBundle(url: string, opts: CallOptions = {}): Promise<HttpResponse> {
    return this.call({ method: 'GET', url: this.resolve(url), retry: this.retry }, opts);
  }

  /** §4.4: 201 created, 200 updated, or a refusal. */
  postStatus(deploymentId: string, report: Payload<DeploymentStatusReport>, opts: CallOptions = {}): Promise<HttpResponse> {
    return this.call({ method: 'POST', url: this.paths.status(deploymentId), ...payload(report) }, opts);
  }

  /** Any request over this client's transport and authentication: for methods and paths the Device API does not have. */
  raw(req: Pick<RequestOptions, 'method' | 'url' | 'json' | 'body' | 'headers'>, opts: CallOptions = {}): Promise<HttpResponse> {
    return this.call({ ...req, retry: 'never' }, opts);
  }

  /** Manifest URLs are relative to the manifest's own URL (RFC 3986 §5), which lives under the base URL. */
  private resolve(url: string): string {
    if (this.baseUrl === undefined || /^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
    return new URL(url, new URL(this.paths.desiredState(this.clientId ?? ''), this.baseUrl)).href;
  }

  private call(req: RequestOptions, opts: CallOptions, signed = true): Promise<HttpResponse> {
    const faultyUnsigned =
      this.unsigned !== undefined && this.unsigned === (req.url === this.paths.onboarding ? 'onboarding' : 'after-onboarding');
    const sign = signed && this.profile.deviceAuth === 'signature' && this.signer !== undefined && !faultyUnsigned;
    // `req` is each method's own fresh literal: completed in place, not copied (a fleet sends thousands a second).
    if (opts.headers) req.headers = { ...req.headers, ...opts.headers };
    if (sign) req.signer = this.signer;
    if (opts.signal) req.signal = opts.signal;
    return this.transport.request(req);
  }
}

/** Objects go as JSON; text and bytes go as they are, still labelled JSON unless the caller says otherwise. */
function payload(body: Payload<object>): Pick<RequestOptions, 'json' | 'body' | 'headers'> {
  if (typeof body === 'string' || body instanceof Uint8Array) return { body, headers: { 'content-type': 'application/json' } };
  return { json: body };
}

function clientIdOf(response: HttpResponse): string | undefined {
  try {
    const id = (response.json() as { clientId?: unknown } | null)?.clientId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function rootCaOf(response: HttpResponse): { pem?: string; problem?: string } {
  let encoded: unknown;
  try {
    encoded = (response.json() as { certificate?: unknown } | null)?.certificate;
  } catch {
    return { problem: 'the body is not JSON' };
  }
  if (typeof encoded !== 'string' || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(encoded)) return { problem: 'no base64 `certificate` string' };
  // A fleet's devices all fetch the same root CA: the same bytes read the same, so the last answer is kept.
  if (lastRootCa?.encoded !== encoded) lastRootCa = { encoded, read: readRootCa(encoded) };
  return lastRootCa.read;
}

let lastRootCa: { encoded: string; read: { pem?: string; problem?: string } } | undefined;

function readRootCa(encoded: string): { pem?: string; problem?: string } {
  const bytes = Buffer.from(encoded, 'base64');
  const text = bytes.toString('latin1');
  const isPem = text.trimStart().startsWith('-----BEGIN');
  try {
    const cert = new X509Certificate(isPem ? text.trim() : bytes);
    return { pem: isPem ? text : cert.toString() };
  } catch (e) {
    return { problem: `\`certificate\` is neither a PEM nor a DER certificate: ${(e as Error).message}` };
  }
}
