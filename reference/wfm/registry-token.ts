// §5: the WFM requests a token from the registry's authentication service (distribution token flow) after a
// 401 Bearer challenge, for the scope the challenge names. The reference WFM holds no registry credentials,
// so it asks anonymously; only loopback realms are ever asked (the kit's network policy).
import { isLoopbackHost } from '../../spec/loopback.ts';
import { bearerChallenge } from '../../simulators/transport/header-params.ts';

export async function pullToken(wwwAuthenticate: string | null): Promise<string | undefined> {
  const challenge = bearerChallenge(wwwAuthenticate ?? undefined);
  if (!challenge?.['realm']) return undefined;
  let realm: URL;
  try {
    realm = new URL(challenge['realm']);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(realm.protocol) || !isLoopbackHost(realm.hostname)) return undefined;
  if (challenge['service'] !== undefined) realm.searchParams.set('service', challenge['service']);
  for (const scope of (challenge['scope'] ?? '').split(' ').filter(Boolean)) realm.searchParams.append('scope', scope);
  const res = await fetch(realm, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) return undefined;
  const doc = (await res.json().catch(() => undefined)) as { token?: unknown; access_token?: unknown } | undefined;
  const token = doc?.token ?? doc?.access_token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}
