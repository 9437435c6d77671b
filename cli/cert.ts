// `wfmck cert`: a device key and certificate from a device CA, plus the OnboardingRequest body that carries it.
import { looserModeNotice, writeSecretFile } from '../run/processes/secret-file.ts';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXIT_OK, UsageError } from '../run/options/usage.ts';
import { folder, text } from '../run/options/args.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';

export const SPEC: CommandSpec = {
  name: 'cert',
  usage: ['--ca-dir DIR --id NAME [--out PREFIX]'],
  about: `Issues a device certificate (ECDSA P-256) from the device CA in DIR (device-ca.pem, device-ca.key, as written by
\`wfmck serve --state-dir DIR\`) and writes PREFIX.cert.pem, PREFIX.key.pem and PREFIX.onboarding.json (the
OnboardingRequest of interfaces.md §2.3).`,
  groups: [
    {
      options: [
        { flag: 'ca-dir', value: 'DIR', doc: 'the folder of device-ca.pem and device-ca.key', parse: caDir },
        { flag: 'id', value: 'NAME', doc: "the certificate's common name", parse: text },
        { flag: 'out', value: 'PREFIX', doc: 'where the files go (default DIR/NAME)' },
      ],
    },
  ],
};

export async function run(argv: string[]): Promise<number> {
  const { help, values: given } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const values = given as { 'ca-dir'?: string; id?: string; out?: string };
  for (const flag of ['ca-dir', 'id'] as const)
    if (!values[flag]) throw new UsageError(`--${flag}: missing: cert needs --ca-dir DIR and --id NAME`);
  const dir = values['ca-dir']!;
  // The certificate modules (@peculiar/x509) load only now: --help and a usage error cost a fraction of the start-up.
  const { issueCertificate, loadIssued } = await import('../protocol/pki.ts');
  const ca = await loadIssued(await readFile(join(dir, 'device-ca.pem'), 'utf8'), await readFile(join(dir, 'device-ca.key'), 'utf8'));
  const leaf = await issueCertificate(ca, { commonName: values.id!, usage: ['client'] });
  const prefix = values.out ?? join(dir, values.id!);
  await mkdir(dirname(prefix), { recursive: true });
  const onboarding = { apiVersion: 'v1', kind: 'OnboardingRequest', certificate: Buffer.from(leaf.certPem).toString('base64') };
  await writeFile(`${prefix}.cert.pem`, leaf.certPem);
  const notice = looserModeNotice(`${prefix}.key.pem`, await writeSecretFile(`${prefix}.key.pem`, leaf.keyPem));
  if (notice) process.stderr.write(`${notice}\n`);
  await writeFile(`${prefix}.onboarding.json`, JSON.stringify(onboarding) + '\n');
  process.stdout.write(
    JSON.stringify({ certFile: `${prefix}.cert.pem`, keyFile: `${prefix}.key.pem`, onboardingFile: `${prefix}.onboarding.json` }) + '\n',
  );
  return EXIT_OK;
}

/** A folder holding the device CA's certificate and key. */
function caDir(raw: unknown, base: string): string {
  const dir = folder(raw, base);
  const missing = ['device-ca.pem', 'device-ca.key'].filter((f) => !existsSync(join(dir, f)));
  if (missing.length) throw new Error(`${dir} has no ${missing.join(' or ')} (wfmck serve --state-dir DIR writes them)`);
  return dir;
}
