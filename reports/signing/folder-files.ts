// What of a report folder the signature covers: every file in it, so `verify-report` can name any file added or
// changed after signing, except the few that cannot or need not be signed (UNSIGNED_BY_DESIGN). Signer and verifier
// list the folder with the same function, so the two never disagree on what "every file" is.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ENVELOPE_FILE } from '../../run/contract/context.ts';

export const PUBLIC_KEY_FILE = 'conformance.pub.pem';
export const CERTIFICATE_FILE = 'conformance.cert.pem';

/**
 * Left unsigned on purpose: the envelope (it holds the signature, so it cannot be its own subject), the public key and
 * certificate beside it (checked against the signature, not by a digest), and Playwright's own outputs
 * (playwright-report/, test-results/, blob-report/: its debugging aid, rewritten by its tools, never the verdict).
 */
export const UNSIGNED_BY_DESIGN: readonly string[] = [
  ENVELOPE_FILE,
  PUBLIC_KEY_FILE,
  CERTIFICATE_FILE,
  'playwright-report/',
  'test-results/',
  'blob-report/',
];

function unsignedByDesign(rel: string, isDir: boolean): boolean {
  return UNSIGNED_BY_DESIGN.includes(isDir ? `${rel}/` : rel);
}

/**
 * Every file of `dir` that the signature must cover, as subject names (relative, forward slashes), sorted. Anything
 * that is not a folder counts as a file (a symlink, too: it is never followed into a folder).
 */
export function filesToSign(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (unsignedByDesign(name, entry.isDirectory())) continue;
      if (entry.isDirectory()) walk(name);
      else out.push(name);
    }
  };
  walk('');
  return out.sort();
}
