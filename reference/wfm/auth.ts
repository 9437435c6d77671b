// P3: who sent a Device API request. Content-Digest (400), then the RFC 9421 signature (401), then policy (403).
import { verifyContentDigest } from '../../simulators/transport/content-digest.ts';
import { verifySignature, type VerifyResult } from '../../simulators/transport/signing.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, header } from './http.ts';
import type { Client } from './store.ts';

/** The header naming the client when the profile's deviceAuth is `none` (labs) and the path has no clientId. */
export const CLIENT_ID_HEADER = 'wfmck-client-id';

export async function authenticate(ctx: WfmContext, req: WfmRequest): Promise<Client> {
  const client = ctx.profile.deviceAuth === 'none' ? namedClient(ctx, req) : await signedClient(ctx, req);
  if (client.retired) throw new WfmError(403, `client ${client.clientId} is retired: not authorized by the WFM local policy`);
  const pathClient = req.params['clientId'];
  if (pathClient !== undefined && pathClient !== client.clientId) {
    throw new WfmError(403, `the path names client ${pathClient}, but the request comes from another client`);
  }
  return client;
}

/** P3: a request with a body carries a Content-Digest that matches it (400 otherwise). */
export function checkContentDigest(req: WfmRequest): void {
  const value = header(req.headers, 'content-digest');
  if (req.body.length === 0 && value === undefined) return;
  const verdict = verifyContentDigest(value, req.body);
  if (verdict !== 'ok') throw new WfmError(400, `Content-Digest ${verdict}: a request body needs a sha-256 or sha-512 Content-Digest that matches it (RFC 9530)`);
}

export function signatureInput(req: WfmRequest, lookupKey: Parameters<typeof verifySignature>[0]['lookupKey']) {
  return { method: req.method, url: req.targetUri, headers: req.headers, hasBody: req.body.length > 0, lookupKey };
}

export function signatureRefusal(result: Exclude<VerifyResult, { ok: true }>): WfmError {
  return new WfmError(401, `HTTP message signature ${result.reason}: ${result.detail}`);
}

async function signedClient(ctx: WfmContext, req: WfmRequest): Promise<Client> {
  checkContentDigest(req);
  const result = await verifySignature(
    signatureInput(req, async (keyId) => {
      const client = ctx.store.byKeyId.get(keyId);
      return client && { publicKey: client.publicKey, algorithm: client.algorithm };
    }),
  );
  if (!result.ok && result.reason === 'unknown-key') throw new WfmError(403, `client rejected: ${result.detail} was never onboarded`);
  if (!result.ok) throw signatureRefusal(result);
  return ctx.store.byKeyId.get(result.keyId)!;
}

function namedClient(ctx: WfmContext, req: WfmRequest): Client {
  const clientId = req.params['clientId'] ?? header(req.headers, CLIENT_ID_HEADER);
  const client = clientId === undefined ? undefined : ctx.store.client(clientId);
  if (!client) throw new WfmError(403, `client rejected: unknown client ${clientId ?? '(none named)'}`);
  return client;
}
