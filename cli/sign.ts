// `wfmck sign`: RFC 9421 signature headers (profiles P3) for one request, or a ready curl command that sends it.
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { algorithmForKey, signRequest } from '../protocol/signing.ts';
import { certificateKeyId, parseCertificate } from '../protocol/pki.ts';
import { EXIT_OK, UsageError } from '../run/usage.ts';

const HELP = `usage: wfmck sign --cert FILE --key FILE [--data JSON|@FILE] [--curl [--cacert FILE]] METHOD URL

Signs one Device API request per profiles.md P3 (Content-Digest, Signature-Input, Signature; keyid = hex SHA-256
of the certificate's DER). Prints the headers, one per line, or with --curl a shell-quoted curl command that sends
the request and prints the HTTP status.
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      cert: { type: 'string' },
      key: { type: 'string' },
      data: { type: 'string' },
      curl: { type: 'boolean' },
      cacert: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void process.stdout.write(HELP), EXIT_OK;
  const [method, url] = positionals;
  if (!values.cert || !values.key || !method || !url || positionals.length !== 2) throw new UsageError(`sign needs --cert, --key, METHOD and URL\n\n${HELP}`);
  const body = values.data === undefined ? undefined : values.data.startsWith('@') ? await readFile(values.data.slice(1)) : Buffer.from(values.data);
  const cert = parseCertificate(await readFile(values.cert, 'utf8'));
  const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
  const privateKey = createPrivateKey(await readFile(values.key, 'utf8'));
  const algorithm = algorithmForKey(createPublicKey(privateKey));
  if (!algorithm) throw new UsageError('--key must be an EC P-256, RSA or Ed25519 private key (profile P3)');
  const signed = await signRequest({ method: method.toUpperCase(), url, headers, body, privateKey, keyId: certificateKeyId(cert.rawData), algorithm });
  const all = { ...headers, ...signed };
  if (!values.curl) {
    process.stdout.write(Object.entries(all).map(([k, v]) => `${k}: ${v}\n`).join(''));
    return EXIT_OK;
  }
  const args = ['curl', '--silent', '--show-error', '--output', '/dev/null', '--write-out', '%{http_code}\\n', '-X', method.toUpperCase()];
  if (values.cacert) args.push('--cacert', values.cacert);
  for (const [k, v] of Object.entries(all)) args.push('-H', `${k}: ${v}`);
  if (values.data !== undefined) args.push('--data-binary', values.data.startsWith('@') ? values.data : values.data);
  args.push(url);
  process.stdout.write(args.map(shellQuote).join(' ') + '\n');
  return EXIT_OK;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
