// One violation of a spec rule: the shape every pure rule in spec/rules returns.

export interface Finding {
  /** Short kebab-case rule name, stable across releases (e.g. `custom-needs-labels`). */
  rule: string;
  /** One-line explanation that names the spec section (e.g. `§2.1.1: ...`). */
  message: string;
  /** Where in the document, as a JSON-pointer-like path (e.g. `/properties/cpus/0/cores`). */
  path?: string;
}

export function finding(rule: string, message: string, path?: string): Finding {
  return path === undefined ? { rule, message } : { rule, message, path };
}
