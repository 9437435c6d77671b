// Shared setup for the reference WFM tests: an HTTPS WFM on loopback, device certificates, and a signing client.
import { hostingDocument } from '../../fixtures/documents/capabilities.ts';
import { Agent, request } from 'undici';
import { createRootCa, issueCertificate, certificateKeyId, type Issued, type KeyAlgorithm } from '../../protocol/pki.ts';
import { startWfm, type StartWfmOptions, type WfmService } from '../../reference/wfm/server.ts';
import { KeyObject } from 'node:crypto';
import { algorithmForKey, signRequest } from '../../protocol/signing.ts';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';

export interface Harness {
  wfm: WfmService;
  agent: Agent;
  rootCa: Issued;
  deviceCa: Issued;
  profile: Profile;
  close(): Promise<void>;
}

export interface Device {
  issued: Issued;
  keyId: string;
  /** §2.3: the base64 of the DER certificate. */
  certificate: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  text: string;
  json: any;
}

export async function startHarness(opts: Partial<StartWfmOptions> = {}): Promise<Harness> {
  const rootCa = await createRootCa('wfm test root');
  const server = await issueCertificate(rootCa, { commonName: 'wfm', ipAddresses: ['127.0.0.1'], usage: ['server'] });
  const deviceCa = await createRootCa('wfm test device CA');
  const profile = opts.profile ?? resolveProfile();
  const wfm = await startWfm({
    tls: { cert: server.certPem + rootCa.certPem, key: server.keyPem },
    rootCaPem: rootCa.certPem,
    trustedDeviceCaPems: [deviceCa.certPem],
    ...opts,
    profile,
  });
  const agent = new Agent({ connect: { ca: rootCa.certPem } });
  return {
    wfm,
    agent,
    rootCa,
    deviceCa,
    profile,
    close: async () => {
      await agent.close();
      await wfm.close();
    },
  };
}

export async function newDevice(
  issuer: Issued,
  opts: { keyAlgorithm?: KeyAlgorithm; notBefore?: Date; notAfter?: Date } = {},
): Promise<Device> {
  const issued = await issueCertificate(issuer, { commonName: 'device', usage: ['client'], ...opts });
  return fromIssued(issued);
}

export function fromIssued(issued: Issued): Device {
  const der = Buffer.from(issued.cert.rawData);
  return { issued, keyId: certificateKeyId(der), certificate: der.toString('base64') };
}

export interface Call {
  method: string;
  path: string;
  /** An object is sent as JSON; a string or Buffer as is. */
  body?: unknown;
  device?: Device;
  headers?: Record<string, string>;
  keyId?: string;
  /** Signed request headers to replace after signing (to tamper). */
  after?: Record<string, string>;
}

export async function call(h: Harness, c: Call): Promise<Answer> {
  const url = h.wfm.url + c.path;
  const body =
    c.body === undefined
      ? undefined
      : typeof c.body === 'string' || Buffer.isBuffer(c.body)
        ? Buffer.from(c.body as string)
        : Buffer.from(JSON.stringify(c.body));
  const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}), ...c.headers };
  if (c.device) {
    Object.assign(
      headers,
      await signRequest({
        method: c.method,
        url,
        headers,
        body,
        privateKey: c.device.issued.keys.privateKey,
        keyId: c.keyId ?? c.device.keyId,
        algorithm: algorithmForKey(KeyObject.from(c.device.issued.keys.publicKey)),
      }),
    );
  }
  Object.assign(headers, c.after);
  const res = await request(url, { dispatcher: h.agent, method: c.method as 'GET', headers, body });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, bytes, text, json };
}

export function onboardingBody(device: Device): object {
  return { apiVersion: 'v1', kind: 'OnboardingRequest', certificate: device.certificate };
}

/** A trusted device, onboarded: its clientId. */
export async function onboarded(h: Harness, device?: Device): Promise<{ device: Device; clientId: string }> {
  const d = device ?? (await newDevice(h.deviceCa));
  const res = await call(h, { method: 'POST', path: '/api/v1/onboarding', body: onboardingBody(d), device: d });
  if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${res.text}`);
  return { device: d, clientId: res.json.clientId };
}

/** A workload-hosting document (§2.1.1) for `id`. */
export const hostingDoc = hostingDocument;

/** §2.2: a see-thru gateway that hosts nothing reports only its identity fields. */
export function identityOnlyDoc(id: string): DeviceCapabilities {
  return { properties: { id, vendor: 'Acme Devices', modelNumber: 'GW-1', serialNumber: `SN-${id}` } };
}

export function capabilitiesPath(deviceId: string): string {
  return `/api/v1/capabilities/${deviceId}`;
}

export async function putDevice(h: Harness, device: Device, doc: DeviceCapabilities): Promise<Answer> {
  return call(h, { method: 'PUT', path: capabilitiesPath(doc.properties.id), body: doc, device });
}
