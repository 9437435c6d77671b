// Two header grammars a registry client reads: RFC 8288 Link (pagination) and RFC 9110 §11.6.1 challenges.

/** The target of the first `rel="next"` link, resolved against `base`; undefined when there is none. */
export function nextLink(header: string | undefined, base: string): string | undefined {
  if (!header) return undefined;
  for (const m of header.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2] ?? '');
    const rel = rels ? (rels[1] ?? rels[2] ?? '') : '';
    if (rel.toLowerCase().split(/\s+/).includes('next')) {
      try {
        return new URL(m[1]!, base).href;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The parameters of the `Bearer` challenge in a WWW-Authenticate value (other schemes skipped), lower-case names. */
export function bearerChallenge(header: string | undefined): Record<string, string> | undefined {
  if (!header) return undefined;
  const start = /(?:^|,)\s*bearer(?:\s+|$)/i.exec(header);
  if (!start) return undefined;
  const params: Record<string, string> = {};
  const re = /\s*,?\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*(=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*)))?/y;
  re.lastIndex = start.index + start[0].length;
  let m: RegExpExecArray | null;
  while (re.lastIndex < header.length && (m = re.exec(header))) {
    // A token without `=` begins the next challenge.
    if (m[2] === undefined) break;
    params[m[1]!.toLowerCase()] = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : (m[4] ?? '');
  }
  return params;
}
