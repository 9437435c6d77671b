// `wfmck verify-report <dir>`: checks what `wfmck run --sign` wrote. The verification itself is reports/signing/;
// this file parses arguments, says which key was trusted, and maps the outcome to an exit code.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ENVELOPE_FILE } from '../run/contract/context.ts';
import { loadPublicKey } from '../reports/signing/keys.ts';
import { PUBLIC_KEY_FILE, UNSIGNED_BY_DESIGN } from '../reports/signing/folder-files.ts';
import { EXIT_FAIL, EXIT_OK, InputError, UsageError } from '../run/options/usage.ts';
import { givenFile } from '../run/options/args.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';

export const SPEC: CommandSpec = {
  name: 'verify-report',
  usage: ['<dir> [--key FILE]'],
  about: `Verifies a report folder signed by \`wfmck run --sign\`: the DSSE signature of ${ENVELOPE_FILE} (an in-toto
Statement), then the sha256 of every signed file, then that every file in the folder is signed (all but
${UNSIGNED_BY_DESIGN.join(', ')}). Exit 0 when all hold, 1 with one line per changed, missing or unsigned file,
2 for usage errors and unreadable input.`,
  positionals: true,
  groups: [
    {
      options: [
        {
          flag: 'key',
          value: 'FILE',
          doc: `the public key you trust (SPKI PEM, or a certificate): without it the key shipped in the folder (${PUBLIC_KEY_FILE}) is used, which proves the files are unchanged since signing, not who signed`,
          parse: givenFile,
        },
      ],
    },
  ],
};

export function run(argv: string[]): Promise<number> {
  return verifyReportCommand(argv, (text) => void process.stdout.write(text));
}

/** The command with its output as a seam, so tests can run it in-process. */
export async function verifyReportCommand(argv: string[], write: (text: string) => void): Promise<number> {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (write(helpText(SPEC)), EXIT_OK);
  if (positionals.length === 0) throw new UsageError('<dir>: missing: verify-report takes one report folder');
  if (positionals.length > 1) throw new UsageError(`${positionals[1]}: unexpected argument (verify-report takes one report folder)`);
  const dir = resolve(positionals[0]!);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`${dir}: no such folder`);
  const keyFile = values.key as string | undefined;
  const pinnedKey = keyFile !== undefined ? keyOf(keyFile) : undefined;
  // The report modules load only now: --help and a usage error cost a fraction of the start-up.
  const { ReportInputError, verifyReport } = await import('../reports/signing/verify.ts');
  let v: ReturnType<typeof verifyReport>;
  try {
    v = verifyReport(dir, { pinnedKey });
  } catch (e) {
    // No envelope, or one that cannot be read: an input to give, not a mismatch and not an option to fix.
    throw e instanceof ReportInputError ? new InputError(e.message) : e;
  }
  write(
    v.keySource === 'pinned'
      ? `key: pinned ${keyFile} (${v.keyId.slice(0, 16)})\n`
      : `key: the one shipped in ${join(dir, PUBLIC_KEY_FILE)} (${v.keyId.slice(0, 16)}): this proves integrity, not identity; pin a trusted key with --key FILE\n`,
  );
  if (v.certificateSubject) write(`certificate: ${v.certificateSubject} (its chain is not checked)\n`);
  if (v.problems.length > 0) {
    for (const p of v.problems) write(`FAIL ${p}\n`);
    write(`NOT VERIFIED: ${v.problems.length} problem(s) in ${dir}\n`);
    return EXIT_FAIL;
  }
  write(`verified: the signature and ${v.subjects.length} signed files (${v.subjects.join(', ')})\n`);
  return EXIT_OK;
}

function keyOf(file: string): ReturnType<typeof loadPublicKey> {
  try {
    return loadPublicKey(resolve(file));
  } catch (e) {
    throw new UsageError(`--key: ${(e as Error).message}`);
  }
}
