// `wfmck run --sign` / `--signing-key`: the key is loaded before anything runs (a bad key file is a usage error at
// once, not after the run), and the folder is signed after Playwright exits, when the reporter has written everything.
import type { Config } from '../run/options/config.ts';
import { generateSigningKey, loadSigningKey, type SigningKey } from '../reports/signing/keys.ts';
import { signReport } from '../reports/signing/sign-report.ts';

export function runSigningKey(config: Config): SigningKey | undefined {
  if (!config.signing) return undefined;
  return config.signing.keyFile ? loadSigningKey(config.signing.keyFile, config.signing.certFile) : generateSigningKey();
}

/** Signs the output folder; the line to print, and whether it worked (a requested signature that failed is a kit error). */
export function signRunReports(config: Config, key: SigningKey): { ok: boolean; line: string } {
  try {
    const signed = signReport(config.out, key);
    const whose = key.generated
      ? 'a key made for this run'
      : `${config.signing?.keyFile}${key.certificatePem ? ' (certificate beside it)' : ''}`;
    return {
      ok: true,
      line: `signed ${signed.subjects.length} files with ${whose}, key ${signed.keyId.slice(0, 16)}: ${signed.envelopeFile}`,
    };
  } catch (e) {
    return { ok: false, line: `not signed: ${(e as Error).message}` };
  }
}
