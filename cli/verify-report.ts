// `wfmck verify-report <dir>`: checks what `wfmck run --sign` wrote. The verification itself is reports/signing/;
// this file parses arguments, says which key was trusted, and maps the outcome to an exit code.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ENVELOPE_FILE } from '../run/context.ts';
import { loadPublicKey } from '../reports/signing/keys.ts';
import { PUBLIC_KEY_FILE } from '../reports/signing/sign-report.ts';
import { verifyReport } from '../reports/signing/verify-report.ts';
import { EXIT_FAIL, EXIT_OK, UsageError } from '../run/usage.ts';

const HELP = `usage: wfmck verify-report <dir> [--key FILE]

Verifies a report folder signed by \`wfmck run --sign\`: the DSSE signature of ${ENVELOPE_FILE} (an in-toto
Statement), then the sha256 of every signed file (conformance.json, conformance.html, junit.xml, each evidence file
the report names). Exit 0 when all hold, 1 with one line per mismatch, 2 for usage errors and unreadable input.

  --key FILE   the public key you trust (SPKI PEM, or a certificate): without it the key shipped in the folder
               (${PUBLIC_KEY_FILE}) is used, which proves the files are unchanged since signing, not who signed
`;

export function run(argv: string[]): Promise<number> {
  return Promise.resolve(verifyReportCommand(argv, (text) => void process.stdout.write(text)));
}

/** The command with its output as a seam, so tests can run it in-process. */
export function verifyReportCommand(argv: string[], write: (text: string) => void): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { key: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    throw new UsageError(`verify-report: ${(e as Error).message.split('\n')[0]}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return write(HELP), EXIT_OK;
  if (positionals.length !== 1) throw new UsageError(`verify-report takes one report folder\n\n${HELP}`);
  const dir = resolve(positionals[0]!);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`verify-report: ${dir} is not a folder`);
  const pinnedKey = values.key !== undefined ? loadPublicKey(resolve(values.key)) : undefined;
  const v = verifyReport(dir, { pinnedKey });
  write(v.keySource === 'pinned'
    ? `key: pinned ${values.key} (${v.keyId.slice(0, 16)})\n`
    : `key: the one shipped in ${join(dir, PUBLIC_KEY_FILE)} (${v.keyId.slice(0, 16)}): this proves integrity, not identity; pin a trusted key with --key FILE\n`);
  if (v.certificateSubject) write(`certificate: ${v.certificateSubject} (its chain is not checked)\n`);
  if (v.problems.length > 0) {
    for (const p of v.problems) write(`FAIL ${p}\n`);
    write(`NOT VERIFIED: ${v.problems.length} problem(s) in ${dir}\n`);
    return EXIT_FAIL;
  }
  write(`verified: the signature and ${v.subjects.length} signed files (${v.subjects.join(', ')})\n`);
  return EXIT_OK;
}
