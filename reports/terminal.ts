// One printer for text a target, a hook or an archive supplied, on its way to a terminal: control characters (escape
// sequences above all) and line breaks are shown escaped, so what a target sends can never erase a finding or paint a
// line of its own. JSON and HTML have their own escaping; this is for the console only.

// C0 controls but tab, DEL, C1 controls, and the Unicode line/paragraph separators and bidi overrides that reorder a line.
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  const code = c.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` as one terminal-safe line: every control character and line break escaped (\x1b, \n, \u202e ...). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** `text` within `max` characters, cut only between words (an ellipsis says so); a first word longer than `max` stays whole. */
export function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max); // the ellipsis takes the place of the space it breaks at
  const space = room.search(/\s\S*$/);
  const cut = space > 0 ? room.slice(0, space) : text.slice(0, text.search(/\s|$/));
  if (cut.length === text.length) return text;
  return `${cut.replace(/[\s,;:·]+$/, '')}…`;
}
