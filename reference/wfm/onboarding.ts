// §2.3, §4.3, P2, P3: the Certificate API and onboarding. Order: body (400), certificate (400), digest (400),
// signature by the certificate's own key (401), trust (403).
import type { KeyObject } from 'node:crypto';
import { validate } from '../../spec/schemas/index.ts';
import { inCryptoBatch } from '../../protocol/crypto-batch.ts';
import { verifySignature } from '../../protocol/signing.ts';
import { checkContentDigest, signatureInput, signatureRefusal } from './auth.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, header, json, parseJsonObject, type Reply } from './http.ts';
import { newClient } from './manifest.ts';
import { readOnboardingCertificate, type OnboardingCertificate } from './onboarding-certificate.ts';

/** P2: the WFM root CA, no authentication. */
export function certificateApi(ctx: WfmContext, req: WfmRequest): Reply {
  if (ctx.decisions.certificateApiNeedsSignature && header(req.headers, 'signature') === undefined)
    throw new WfmError(401, 'the Certificate API needs a signed request');
  return json(200, { certificate: Buffer.from(ctx.rootCaPem, 'utf8').toString('base64') }, { 'cache-control': 'no-cache' });
}

export async function onboard(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const body = parseJsonObject(req.body);
  const checked = validate('OnboardingRequest', body, { vendor: ctx.profile.vendor });
  const errors = checked.ok ? [] : checked.errors.filter((e) => ctx.decisions.checksOnboardingKind || e.path !== '/kind');
  if (errors.length) throw new WfmError(400, 'malformed OnboardingRequest', errors);
  // Its issuer's signature and its key import run with the turn's other native crypto (protocol/crypto-batch.ts).
  const cert = await inCryptoBatch(() => readOnboardingCertificate(body['certificate'] as string, ctx.trustedDeviceCas));
  const { keyId, key } = cert;

  if (ctx.profile.deviceAuth === 'signature') {
    checkContentDigest(ctx, req);
    const result = await verifySignature(signatureInput(ctx, req, async (id) => (id === keyId ? key : undefined)));
    if (!result.ok && !ctx.decisions.onboardsDespiteSignature(result.reason)) {
      const reason = result.reason === 'unknown-key' ? `keyid is not the SHA-256 of the onboarded certificate (${keyId})` : result.detail;
      const refusal = signatureRefusal(ctx, { ...result, detail: reason });
      if (result.reason === 'missing' && ctx.decisions.onboardsUnsignedBeforeRefusing) await admit(ctx, cert, keyId, key);
      throw refusal;
    }
  }
  return json(201, { clientId: await admit(ctx, cert, keyId, key) });
}

/** Trust (403), then the client of this certificate: the known one again, or a new one. */
async function admit(
  ctx: WfmContext,
  cert: OnboardingCertificate,
  keyId: string,
  key: { publicKey: KeyObject; algorithm: string },
): Promise<string> {
  await checkTrusted(ctx, cert, keyId);
  const known = ctx.store.byKeyId.get(keyId);
  if (known?.retired && !ctx.decisions.onboardsRetiredClient)
    throw new WfmError(403, `client rejected: the client of this certificate (${known.clientId}) is retired`);
  // Onboarding the same certificate again is idempotent: the same client, answered 201 again.
  if (known) return known.clientId;
  const client = await newClient(ctx, { clientId: ctx.decisions.newClientId(ctx.store), keyId, ...key });
  const raced = ctx.store.byKeyId.get(keyId);
  if (raced) return raced.clientId;
  ctx.store.add(client);
  return client.clientId;
}

/** 403 unless the certificate is valid now and issued by a trusted device CA or trusted by the operator hook. */
async function checkTrusted(ctx: WfmContext, cert: OnboardingCertificate, keyId: string): Promise<void> {
  const now = new Date();
  const checksDates = ctx.decisions.checksCertificateValidity;
  const { notAfter, notBefore } = cert;
  if (checksDates && notAfter < now) throw new WfmError(403, `certificate not trusted: expired at ${notAfter.toISOString()}`);
  if (checksDates && notBefore > now) throw new WfmError(403, `certificate not trusted: not valid before ${notBefore.toISOString()}`);
  if (ctx.store.trustedKeyIds.has(keyId) || ctx.decisions.trustsAnyIssuer) return;
  if (cert.issuedByAnyOf(ctx.trustedDeviceCas, now)) return;
  throw new WfmError(403, `certificate not trusted: issuer "${cert.issuer()}" is not a trusted device CA`);
}
