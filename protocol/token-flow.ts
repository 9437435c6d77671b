// The distribution token flow's two pure steps, for every client that follows a 401 Bearer challenge (the kit's
// registry client, the reference WFM's pulls): the token request URL, and the token in the realm's answer.

/** GET <realm>?service=...&scope=... (one scope parameter per scope); undefined for a realm that is not http(s). */
export function tokenRequestUrl(challenge: Record<string, string>): URL | undefined {
  let realm: URL;
  try {
    realm = new URL(challenge['realm'] ?? '');
  } catch {
    return undefined;
  }
  if (realm.protocol !== 'https:' && realm.protocol !== 'http:') return undefined;
  if (challenge['service'] !== undefined) realm.searchParams.set('service', challenge['service']);
  for (const scope of (challenge['scope'] ?? '').split(' ').filter(Boolean)) realm.searchParams.append('scope', scope);
  return realm;
}

/** `token`, or OAuth's `access_token`, when it is a non-empty string. */
export function tokenOf(answer: unknown): string | undefined {
  const doc = answer as { token?: unknown; access_token?: unknown } | null | undefined;
  const token = doc?.token ?? doc?.access_token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}
