// The kit's verdict on an archive, the way a device judges one: read in memory (readTarGz), then the rule-7 findings.
import { archiveFindings, type TarEntry } from '../../spec/rules/compose-archive.ts';
import type { Finding } from '../../spec/rules/finding.ts';
import { ArchiveReadError, readTarGz } from '../../spec/rules/tar-read.ts';

/** §2.7 rule 7 findings (and the kit's readings beside them) that refuse an archive before extraction. */
export const SECURITY_RULES: ReadonlySet<string> = new Set([
  'no-dotdot',
  'no-absolute-path',
  'link-out-of-top',
  'no-setuid-setgid-sticky',
  'no-special-file',
  'entry-type-known',
]);

export interface KitVerdict {
  readable: boolean;
  readError?: { code: string; message: string };
  entries: TarEntry[];
  refusals: Finding[];
}

export async function kitVerdict(gz: Uint8Array): Promise<KitVerdict> {
  try {
    const entries = await readTarGz(gz);
    return { readable: true, entries, refusals: archiveFindings(entries).filter((f) => SECURITY_RULES.has(f.rule)) };
  } catch (e) {
    if (!(e instanceof ArchiveReadError)) throw e;
    return { readable: false, readError: { code: e.code, message: e.message }, entries: [], refusals: [] };
  }
}

export function kitRejects(v: KitVerdict): boolean {
  return !v.readable || v.refusals.length > 0;
}
