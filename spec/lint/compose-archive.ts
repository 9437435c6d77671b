// `wfmck lint` of a compose archive (§2.7 rules 1-8): read in memory within readTarGz's limits, never extracted.
import { archiveFindings, composeFileEntry, topLevelDirectory, type TarEntry } from '../rules/compose-archive.ts';
import { composeComponentFindings } from '../rules/compose-file.ts';
import { finding, type Finding } from '../rules/finding.ts';
import { ArchiveReadError, readTarGz, type TarLimits } from '../rules/tar-read.ts';
import { located, type Located } from './findings.ts';
import { LintInputError } from './input.ts';

/** Findings on the archive (entries) and on its compose.yaml; `file` names the archive in the report. */
export async function composeArchiveFindings(
  bytes: Uint8Array,
  file: string,
  limits: TarLimits = {},
): Promise<{ findings: Located[]; notes: string[] }> {
  let entries: TarEntry[];
  try {
    entries = await readTarGz(bytes, limits);
  } catch (e) {
    if (!(e instanceof ArchiveReadError)) throw e;
    if (e.code === 'WFMCK_E_ARCHIVE_CORRUPT')
      return {
        findings: located([finding('compose-gzip-tar', `§2.7: a compose archive is a gzip-compressed tar; ${e.message}`)], file),
        notes: [],
      };
    if (e.code === 'WFMCK_E_ARCHIVE_AMBIGUOUS')
      return {
        findings: located(
          [
            finding(
              'tar-header-ambiguous',
              `§2.7 rule 7 (kit reading): ${e.message}; the archive cannot be validated as any extractor reads it`,
            ),
          ],
          file,
        ),
        notes: [],
      };
    throw new LintInputError(`${file}: ${e.message} (the kit's limit; §8 sets none)`, e.code);
  }
  let all: Finding[];
  try {
    all = composeComponentFindings(entries);
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code !== 'WFMCK_E_ARCHIVE_CONTENT_NOT_KEPT') throw e;
    throw new LintInputError(`${file}: ${err.message}`, err.code);
  }
  const archive = archiveFindings(entries);
  const onArchive = (f: Finding) => archive.some((a) => a.rule === f.rule && a.message === f.message && a.path === f.path);
  const compose = composeFileEntry(entries);
  const composeFile = compose ? `${file}: ${compose.name}` : file;
  const hardLinks = new Set(entries.filter((e) => e.type === 'link').map((e) => e.name));
  const variant = (f: Finding) => (f.rule === 'link-out-of-top' && f.path !== undefined && hardLinks.has(f.path) ? 'link' : undefined);
  return {
    findings: [
      ...located(all.filter(onArchive), file, variant),
      ...located(
        all.filter((f) => !onArchive(f)),
        composeFile,
      ),
    ],
    notes: notesOf(entries),
  };
}

function notesOf(entries: TarEntry[]): string[] {
  const top = topLevelDirectory(entries);
  const compose = composeFileEntry(entries);
  return [
    `${entries.length} entries read in memory, nothing extracted`,
    top === undefined
      ? 'no single top-level directory'
      : `top-level directory ${JSON.stringify(top)}${compose ? `, compose file ${compose.name}` : ''}`,
  ];
}
