// §5: the WFM requests a token from the registry's authentication service (distribution token flow) after a
// 401 Bearer challenge, for the scope the challenge names. The reference WFM holds no registry credentials,
// so it asks anonymously; only loopback realms are ever asked (the kit's network policy).
import { isLoopbackHost } from '../../spec/loopback.ts';
import { bearerChallenge } from '../../protocol/header-params.ts';
import { tokenOf, tokenRequestUrl } from '../../protocol/token-flow.ts';
import { loopbackFetch } from '../../protocol/loopback-fetch.ts';

export async function pullToken(wwwAuthenticate: string | null): Promise<string | undefined> {
  const challenge = bearerChallenge(wwwAuthenticate ?? undefined);
  if (!challenge?.['realm']) return undefined;
  const realm = tokenRequestUrl(challenge);
  if (!realm || !isLoopbackHost(realm.hostname)) return undefined;
  const res = await loopbackFetch(realm, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) return undefined;
  return tokenOf(await res.json().catch(() => undefined));
}
