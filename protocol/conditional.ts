// If-None-Match evaluation for GET/HEAD (RFC 9110 §13.1.2): weak comparison over a list of tags or `*`.
// Deliberately not spec/rules/desired-state.ts etagMatches: the suites judge this server with that oracle, and one
// shared parser would hide a bug in both (STYLE habit 5).

// One list member: an optional weak prefix and a quoted opaque tag (etagc = %x21 / %x23-7E / obs-text).
const ENTITY_TAG = /^(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"/;

/**
 * True when the header matches the current representation's tag, so the answer is 304.
 * A header that does not parse matches nothing: a full 200 is always a safe answer.
 */
export function ifNoneMatchHits(header: string | undefined, currentEtag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const current = opaque(currentEtag);
  const tags = parseList(header);
  return tags !== undefined && current !== undefined && tags.includes(current);
}

/** The opaque tags of a comma-separated list (empty members allowed, RFC 9110 §5.6.1), or undefined if malformed. */
function parseList(header: string): string[] | undefined {
  const tags: string[] = [];
  let rest = header;
  for (;;) {
    rest = rest.replace(/^[\t ,]+/, '');
    if (rest === '') return tags;
    const m = ENTITY_TAG.exec(rest);
    if (!m) return undefined;
    tags.push(m[1]!);
    rest = rest.slice(m[0].length).replace(/^[\t ]+/, '');
    if (rest !== '' && !rest.startsWith(',')) return undefined;
  }
}

function opaque(etag: string): string | undefined {
  const m = ENTITY_TAG.exec(etag);
  return m && m[0].length === etag.length ? m[1] : undefined;
}
