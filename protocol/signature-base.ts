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

function derived(name: string, req: BaseRequest, url: () => URL): string | undefined {
  switch (name) {
    case '@method':
      return req.method.toUpperCase();
    case '@target-uri':
      return url().href;
    case '@authority': {
      const u = url();
      return u.host.toLowerCase();
    }
    case '@scheme':
      return url().protocol.slice(0, -1).toLowerCase();
    case '@request-target':
      return url().pathname + url().search;
    case '@path':
      return url().pathname;
    case '@query':
      return url().search || '?';
    default:
      return undefined;
  }
}

/** The base for `components` (as named in Signature-Input) with the serialized `params`; undefined when one is absent. */
export function signatureBase(components: readonly string[], params: string, req: BaseRequest): string | undefined {
  let parsed: URL | undefined;
  const url = () => (parsed ??= new URL(req.url));
  const lines: string[] = [];
  for (const name of components) {
    // RFC 9421 §2.1: a field's value with leading and trailing whitespace removed (obsolete line folding replaced).
    const value = name.startsWith('@') ? derived(name, req, url) : req.headers[name]?.replace(/\s*\r?\n\s*/g, ' ').trim();
    if (value === undefined) return undefined;
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}
