// What the kit's device client decides about a compose component it pulls (§2.7 rules 1-8): which archive rules it
// judges before extracting, and where it looks for compose.yaml. A faulty client replaces single decisions
// (simulators/faults/compose.ts).
import type { Finding } from '../../../spec/rules/finding.ts';
import type { TarEntry } from '../../../spec/rules/compose-archive.ts';

export interface ComposeDecisions {
  /** §2.7 rule 8: a blob's bytes are verified against the layer digest before the archive is read. */
  verifiesBlobDigest: boolean;
  /** §2.7: a finding of this archive rule is overlooked. */
  overlooksArchiveFinding(finding: Finding): boolean;
  /** §2.7: docker-compose.y*ml or compose.yml is taken for compose.yaml. */
  takesOtherComposeFileNames: boolean;
  /** §2.7: a refusal of an archive the rules accept (undefined: none), with its error code. */
  archiveRefusal(entries: readonly TarEntry[], componentName: string | undefined): { code: string; message: string } | undefined;
}

export const cleanComposeDecisions: ComposeDecisions = {
  verifiesBlobDigest: true,
  overlooksArchiveFinding: () => false,
  takesOtherComposeFileNames: false,
  archiveRefusal: () => undefined,
};
