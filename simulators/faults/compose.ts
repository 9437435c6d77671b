// Client faults of compose components (§2.7): the archive rules it overlooks and where it looks for compose.yaml
// (simulators/device/decisions/compose.ts).
import type { TarEntry } from '../../spec/rules/compose-archive.ts';
import type { ClientFaultImplementation, ClientFaultTable } from './types.ts';

/** The rules of the compose file's name and presence (spec/rules/compose-file.ts). */
const NAMING = new Set(['compose-yaml-name', 'compose-yaml-missing']);

const nameOf = (e: TarEntry) => e.name.replace(/^\.\//, '');

/** A client that refuses, with `code` and `message`, an archive `refuses` picks (although §2.7 accepts it). */
function refusing(
  code: string,
  refuses: (entries: readonly TarEntry[], componentName: string | undefined) => string | undefined,
): ClientFaultImplementation {
  return (base) => ({
    archiveRefusal: (entries, componentName) => {
      const message = refuses(entries, componentName);
      return message === undefined ? base.archiveRefusal(entries, componentName) : { code, message };
    },
  });
}

export const implementations: ClientFaultTable = {
  // The blob's bytes are taken as they come.
  'COMPOSE-VERIFY-DIGEST': () => ({ verifiesBlobDigest: false }),
  // Extracts whatever the archive holds: only the naming of compose.yaml is judged.
  'COMPOSE-VALIDATE-BEFORE-EXTRACT': (base) => ({ overlooksArchiveFinding: (f) => !NAMING.has(f.rule) || base.overlooksArchiveFinding(f) }),
  // Takes docker-compose.y*ml or compose.yml for compose.yaml.
  'COMPOSE-CLIENT-REJECTS-OTHER-NAMES': (base) => ({
    overlooksArchiveFinding: (f) => NAMING.has(f.rule) || base.overlooksArchiveFinding(f),
    takesOtherComposeFileNames: true,
  }),
  // compose.yaml is looked for under a directory named after the component.
  'COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY': refusing('COMPOSE_FILE_NOT_FOUND', (entries, component) =>
    entries.some((e) => nameOf(e) === `${component}/compose.yaml`) ? undefined : `no ${component}/compose.yaml in the archive`,
  ),
  // compose.yaml is looked for at the archive's root, never in its top-level directory.
  'COMPOSE-DISCOVERY': refusing('COMPOSE_FILE_NOT_FOUND', (entries) =>
    entries.some((e) => nameOf(e) === 'compose.yaml') ? undefined : 'no compose.yaml at the root of the archive',
  ),
  // A directory below the top-level one is taken for a second project.
  'COMPOSE-SUBDIRS-ALLOWED': refusing('ARCHIVE_INVALID', (entries) =>
    entries.some((e) => nameOf(e).replace(/\/$/, '').split('/').length > 2)
      ? 'the archive nests directories below its top-level one'
      : undefined,
  ),
};
