// P3: who sent a Device API request. Content-Digest (400), then the RFC 9421 signature (401), then policy (403).
import { verifyContentDigest } from '../../protocol/content-digest.ts';
import { verifySignature, type VerifyResult } from '../../protocol/signing.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, header } from './http.ts';
import type { Client } from './store.ts';
import { admitSpiffeId } from './admission.ts';

/** The header naming the client when the profile's deviceAuth is `none` (labs) and the path has no clientId. */
export const CLIENT_ID_HEADER = 'wfmck-client-id';

export async function authenticate(ctx: WfmContext, req: WfmRequest, opts: { allowRetired?: boolean } = {}): Promise<Client> {
  const auth = ctx.profile.deviceAuth;
  const client = auth === 'none' ? namedClient(ctx, req) : auth === 'mtls' ? await svidClient(ctx, req) : await signedClient(ctx, req);
  const retiredAllowed = opts.allowRetired === true || ctx.decisions.acceptsRetiredClient;
  if (client.retired && !retiredAllowed)
    throw new WfmError(403, `client ${client.clientId} is retired: not authorized by the WFM local policy`);
  const pathClient = req.params['clientId'];
  if (pathClient !== undefined && pathClient !== client.clientId && ctx.decisions.servesOtherClients) {
    const named = ctx.store.client(pathClient);
    if (named) return named;
  }
  if (pathClient !== undefined && pathClient !== client.clientId) {
    throw new WfmError(403, `the path names client ${pathClient}, but the request comes from another client`);
  }
  return client;
}

/** P3: a request with a body carries a Content-Digest that matches it (400 otherwise). */
export function checkContentDigest(ctx: WfmContext, req: WfmRequest): void {
  const value = header(req.headers, 'content-digest');
  if (req.body.length === 0 && value === undefined) return;
  const verdict = verifyContentDigest(value, req.body);
  if (!ctx.decisions.acceptsContentDigest(verdict))
    throw new WfmError(
      400,
      `Content-Digest ${verdict}: a request body needs a sha-256 or sha-512 Content-Digest that matches it (RFC 9530)`,
    );
}

export function signatureInput(ctx: WfmContext, req: WfmRequest, lookupKey: Parameters<typeof verifySignature>[0]['lookupKey']) {
  const hasBody = req.body.length > 0;
  const required = ctx.decisions.requiredCoveredComponents(hasBody);
  return { method: req.method, url: req.targetUri, headers: req.headers, hasBody, lookupKey, required };
}

export function signatureRefusal(ctx: WfmContext, result: Exclude<VerifyResult, { ok: true }>): WfmError {
  return new WfmError(ctx.decisions.signatureRefusalStatus(result.reason), `HTTP message signature ${result.reason}: ${result.detail}`);
}

async function signedClient(ctx: WfmContext, req: WfmRequest): Promise<Client> {
  checkContentDigest(ctx, req);
  const result = await verifySignature(
    signatureInput(ctx, req, async (keyId) => {
      const client = ctx.store.byKeyId.get(keyId);
      return client?.publicKey && client.algorithm ? { publicKey: client.publicKey, algorithm: client.algorithm } : undefined;
    }),
  );
  if (!result.ok && result.reason === 'unknown-key')
    throw new WfmError(ctx.decisions.unknownKeyStatus, `client rejected: ${result.detail} was never onboarded`);
  if (!result.ok) throw signatureRefusal(ctx, result);
  const client = ctx.store.byKeyId.get(result.keyId)!;
  if (client.algorithm !== undefined && !ctx.decisions.acceptsSignatureAlgorithm(client.algorithm)) {
    throw new WfmError(401, `HTTP message signature algorithm ${client.algorithm} is not supported`);
  }
  return client;
}

function namedClient(ctx: WfmContext, req: WfmRequest): Client {
  const clientId = req.params['clientId'] ?? header(req.headers, CLIENT_ID_HEADER);
  const client = clientId === undefined ? undefined : ctx.store.client(clientId);
  if (!client) throw new WfmError(403, `client rejected: unknown client ${clientId ?? '(none named)'}`);
  return client;
}

/** P10: the client is the SPIFFE ID its connection proved; one the policy never admitted gets 403 not-authorized. */
async function svidClient(ctx: WfmContext, req: WfmRequest): Promise<Client> {
  const spiffeId = req.peer;
  if (!spiffeId) throw new WfmError(403, 'no client SVID on this connection: every Device API request travels over mutual TLS');
  if (ctx.decisions.requiresSignatureOverMtls && header(req.headers, 'signature') === undefined)
    throw new WfmError(401, 'HTTP message signature missing');
  const client = ctx.store.bySpiffeId.get(spiffeId);
  if (!client && ctx.decisions.admitsUnknownSpiffeIds) return admitSpiffeId(ctx, spiffeId);
  if (!client) throw new WfmError(403, `client ${spiffeId} is not admitted by the WFM local policy`);
  if (!ctx.decisions.acceptsCertificateOf(client, req.peerCertificate))
    throw new WfmError(403, `client ${spiffeId} is bound to another certificate`);
  return client;
}
