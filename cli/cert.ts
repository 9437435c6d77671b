// `wfmck cert`: a device key and certificate from a device CA, plus the OnboardingRequest body that carries it.
import { looserModeNotice, writeSecretFile } from '../run/secret-file.ts';
import { parseArgs } from 'node:util';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { issueCertificate, loadIssued } from '../protocol/pki.ts';
import { EXIT_OK, UsageError } from '../run/usage.ts';

const HELP = `usage: wfmck cert --ca-dir DIR --id NAME [--out PREFIX]

Issues a device certificate (ECDSA P-256) from the device CA in DIR (device-ca.pem, device-ca.key, as written by
\`wfmck serve --state-dir DIR\`) and writes PREFIX.cert.pem, PREFIX.key.pem and PREFIX.onboarding.json (the
OnboardingRequest of interfaces.md §2.3). PREFIX defaults to DIR/NAME.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { 'ca-dir': { type: 'string' }, id: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return void process.stdout.write(HELP), EXIT_OK;
  if (!values['ca-dir'] || !values.id) throw new UsageError(`cert needs --ca-dir and --id\n\n${HELP}`);
  const dir = values['ca-dir'];
  const ca = await loadIssued(await readFile(join(dir, 'device-ca.pem'), 'utf8'), await readFile(join(dir, 'device-ca.key'), 'utf8'));
  const leaf = await issueCertificate(ca, { commonName: values.id, usage: ['client'] });
  const prefix = values.out ?? join(dir, values.id);
  await mkdir(dirname(prefix), { recursive: true });
  const onboarding = { apiVersion: 'v1', kind: 'OnboardingRequest', certificate: Buffer.from(leaf.certPem).toString('base64') };
  await writeFile(`${prefix}.cert.pem`, leaf.certPem);
  const notice = looserModeNotice(`${prefix}.key.pem`, await writeSecretFile(`${prefix}.key.pem`, leaf.keyPem));
  if (notice) process.stderr.write(`${notice}\n`);
  await writeFile(`${prefix}.onboarding.json`, JSON.stringify(onboarding) + '\n');
  process.stdout.write(JSON.stringify({ certFile: `${prefix}.cert.pem`, keyFile: `${prefix}.key.pem`, onboardingFile: `${prefix}.onboarding.json` }) + '\n');
  return EXIT_OK;
}
