// How an exchange is shown as evidence: secrets redacted, bodies as text trimmed with a visible mark, binary named.

export const DEFAULT_TRIM_BYTES = 4096;
export const REDACTED = '<redacted>';

/** Credentials; signature headers are not among them: they prove what was signed and expire on their own. */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token']);
/** Token fields of a token endpoint's JSON answer (distribution token spec, OAuth 2.0). */
const SECRET_FIELDS = /("(?:token|access_token|refresh_token|id_token|password|client_secret)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/g;

const TRIM_MARK = /\n…\[wfmck: body trimmed to (\d+) of (\d+) bytes\]$/;

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = SENSITIVE_HEADERS.has(name.toLowerCase()) ? REDACTED : value;
  return out;
}

/** Drops user:password from a URL. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url;
  }
}

export function redactBody(text: string): string {
  return text.replace(SECRET_FIELDS, `$1"${REDACTED}"`);
}

/**
 * The body as evidence: UTF-8 text cut at `trimBytes` bytes with a mark saying how much there was, or
 * `<N bytes binary>`; undefined for an empty body.
 */
export function renderBody(bytes: Uint8Array | undefined, trimBytes = DEFAULT_TRIM_BYTES): string | undefined {
  if (!bytes || bytes.length === 0) return undefined;
  const head = bytes.subarray(0, Math.min(bytes.length, trimBytes));
  let text: string;
  try {
    // stream: a multi-byte character cut by the trim is not an encoding error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length });
  } catch {
    return `<${bytes.length} bytes binary>`;
  }
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) return `<${bytes.length} bytes binary>`;
  // Redacted before the mark is added, so a secret cut by the trim is still caught at the end of the text.
  const shown = redactBody(text);
  return head.length < bytes.length ? markTrimmed(shown, trimBytes, bytes.length) : shown;
}

/** Cuts an already rendered body further (a transcript with a smaller trim than the transport's). */
export function retrim(text: string | undefined, trimBytes: number): string | undefined {
  if (text === undefined || text.startsWith('<')) return text;
  const mark = trimInfo(text);
  const body = mark ? text.slice(0, text.length - mark.markLength) : text;
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= trimBytes) return text;
  const cut = new TextDecoder().decode(bytes.subarray(0, trimBytes), { stream: true });
  return markTrimmed(cut, trimBytes, mark?.total ?? bytes.length);
}

/** How much of a rendered body was cut, when it was. */
export function trimInfo(text: string): { shown: number; total: number; markLength: number } | undefined {
  const m = TRIM_MARK.exec(text);
  return m ? { shown: Number(m[1]), total: Number(m[2]), markLength: m[0].length } : undefined;
}

function markTrimmed(text: string, shown: number, total: number): string {
  return `${text}\n…[wfmck: body trimmed to ${shown} of ${total} bytes]`;
}
