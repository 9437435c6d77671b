// §5 registry authentication, read as the distribution token flow (errata of AUTH-REGISTRY-TOKEN): a protected
// repository answers 401 with a Bearer challenge; the realm on this origin issues a short-lived HS256 JWT whose
// `access` claim names repositories and actions; each call to a protected repository must carry one that covers it.
import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { RegistryError } from './errors.ts';
import type { Reply } from './http.ts';
import type { Access, RegistryDecisions } from './decisions.ts';

export const TOKEN_PATH = '/token';
export const TOKEN_SERVICE = 'wfmck-registry';
const TOKEN_TTL_S = 300;

export interface TokenAuthOptions {
  /** Which repositories need a token; the default protects every name with a path segment `protected`. */
  protects?: (name: string) => boolean;
}

/** The convention the kit's suites rely on: `<ns>/protected/<app>` is a repository that needs a token. */
export const protectedByName = (name: string): boolean => name.split('/').includes('protected');

export interface TokenAuth {
  /** GET /token?service&scope: a token granting every scope asked for (anonymous pull and push, per the errata). */
  issue(query: URLSearchParams): Promise<Reply>;
  /** Throws a 401 RegistryError with a challenge unless the request may `action` on `name`. */
  check(name: string, action: 'pull' | 'push', authorization: string | undefined, origin: string): Promise<void>;
}

export function createTokenAuth(opts: TokenAuthOptions, decisions: Pick<RegistryDecisions, 'grantsAccess'>): TokenAuth {
  const secret = randomBytes(32);
  const protects = opts.protects ?? protectedByName;

  async function accessOf(authorization: string | undefined): Promise<Access[] | undefined> {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!m) return undefined;
    try {
      const { payload } = await jwtVerify(m[1]!, secret, { audience: TOKEN_SERVICE, algorithms: ['HS256'] });
      return Array.isArray(payload.access) ? (payload.access as Access[]) : [];
    } catch {
      return undefined;
    }
  }

  return {
    async issue(query) {
      const access = query.getAll('scope').flatMap(parseScope);
      const token = await new SignJWT({ access })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(TOKEN_SERVICE)
        .setAudience(query.get('service') ?? TOKEN_SERVICE)
        .setSubject('anonymous')
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_TTL_S}s`)
        .sign(secret);
      const body = JSON.stringify({ token, access_token: token, expires_in: TOKEN_TTL_S, issued_at: new Date().toISOString() });
      return { status: 200, headers: { 'Content-Type': 'application/json' }, body };
    },

    async check(name, action, authorization, origin) {
      if (!protects(name)) return;
      if (decisions.grantsAccess(await accessOf(authorization), name, action)) return;
      const actions = action === 'push' ? 'pull,push' : 'pull';
      const challenge = `Bearer realm="${origin}${TOKEN_PATH}",service="${TOKEN_SERVICE}",scope="repository:${name}:${actions}"`;
      throw new RegistryError(
        401,
        { code: 'UNAUTHORIZED', message: 'authentication required', detail: { name, action } },
        { 'WWW-Authenticate': challenge },
      );
    },
  };
}

/** `repository:<name>:<a,b>` (the name may hold colons only in a port-free form, so split from the ends). */
function parseScope(scope: string): Access[] {
  return scope.split(' ').flatMap((s) => {
    const first = s.indexOf(':');
    const last = s.lastIndexOf(':');
    if (first < 0 || last <= first) return [];
    return [
      {
        type: s.slice(0, first),
        name: s.slice(first + 1, last),
        actions: s
          .slice(last + 1)
          .split(',')
          .filter(Boolean),
      },
    ];
  });
}
