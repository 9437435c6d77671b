// Every string in the report may come from the target (bodies, headers, error texts): it is text, never markup.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and for quoted attribute values alike. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A CSS class token from a status or level ("MUST NOT" -> "must-not"); only [a-z0-9-] survive. */
export function token(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
