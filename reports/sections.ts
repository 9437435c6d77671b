// Spec order and headings of the sections a requirement points at: "1" < "2.1" < "2.1.1" < "2.2" < ... < "9" < "P2".

/** Numbered interfaces.md sections first, in numeric order, then profiles (P1, P2, ...) in numeric order. */
export function compareSections(a: string, b: string): number {
  const pa = a.startsWith('P');
  const pb = b.startsWith('P');
  if (pa !== pb) return pa ? 1 : -1;
  const na = (pa ? a.slice(1) : a).split('.').map(Number);
  const nb = (pb ? b.slice(1) : b).split('.').map(Number);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (na[i] ?? -1) - (nb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** Headings such as "### 2.1 DeviceCapabilities (body of PUT capabilities)" or "## P4. Desired state: ...". */
export function parseSectionTitles(markdown: string): Map<string, string> {
  const titles = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const m = /^#{1,6}\s+((?:P)?\d+(?:\.\d+)*)\.?\s+(.+?)\s*$/.exec(line);
    if (m && !titles.has(m[1]!)) titles.set(m[1]!, m[2]!);
  }
  return titles;
}
