// RFC 9421 §2: the signature base of a request, built by hand for the components a signer or verifier meets: the
// derived @method, @target-uri, @authority, @scheme, @request-target, @path, @query, and header fields. A component
// with parameters (;sf, ;key, ;req, ;bs) is not derived: undefined, so the signature is refused, never guessed.

export interface BaseRequest {
  method: string;
  /** The absolute target URI. */
  url: string;
  /** Header fields by lowercase name (several values already joined with ", "). */
  headers: Record<string, string>;
}

/** The request with its URL parsed at most once, when a derived component first needs it. */
interface Deriving {
  req: BaseRequest;
  parsed: URL | undefined;
}

function urlOf(d: Deriving): URL {
  return (d.parsed ??= new URL(d.req.url));
}

function derived(name: string, d: Deriving): string | undefined {
  switch (name) {
    case '@method':
      return d.req.method.toUpperCase();
    case '@target-uri':
      return urlOf(d).href;
    case '@authority':
      return urlOf(d).host.toLowerCase();
    case '@scheme':
      return urlOf(d).protocol.slice(0, -1).toLowerCase();
    case '@request-target':
      return urlOf(d).pathname + urlOf(d).search;
    case '@path':
      return urlOf(d).pathname;
    case '@query':
      return urlOf(d).search || '?';
    default:
      return undefined;
  }
}

/** The base for `components` (as named in Signature-Input) with the serialized `params`; undefined when one is absent. */
export function signatureBase(components: readonly string[], params: string, req: BaseRequest): string | undefined {
  // No closure per call (under tsx, which kept function names, each inner function made cost a defineProperty too).
  const deriving: Deriving = { req, parsed: undefined };
  const lines: string[] = [];
  for (const name of components) {
    // RFC 9421 §2.1: a field's value with leading and trailing whitespace removed (obsolete line folding replaced).
    const value = name.startsWith('@') ? derived(name, deriving) : req.headers[name]?.replace(/\s*\r?\n\s*/g, ' ').trim();
    if (value === undefined) return undefined;
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}
