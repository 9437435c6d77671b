// `wfmck sign`: RFC 9421 signature headers (profiles P3) for one request, or a ready curl command that sends it.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { EXIT_OK, UsageError } from '../run/options/usage.ts';
import { file, givenFile, text } from '../run/options/args.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { CA_FILE } from '../run/options/option-sets.ts';

export const SPEC: CommandSpec = {
  name: 'sign',
  usage: ['--cert FILE --key FILE [--data JSON|@FILE] [--curl [--ca-file FILE]] METHOD URL'],
  about: `Signs one Device API request per profiles.md P3 (Content-Digest, Signature-Input, Signature; keyid = hex SHA-256
of the certificate's DER). Prints the headers, one per line, or with --curl a shell-quoted curl command that sends
the request and prints the HTTP status.`,
  positionals: true,
  groups: [
    {
      options: [
        { flag: 'cert', value: 'FILE', doc: 'the device certificate (PEM), as `wfmck cert` writes it', parse: file },
        { flag: 'key', value: 'FILE', doc: 'its private key (PEM): EC P-256, RSA or Ed25519', parse: file },
        { flag: 'data', value: 'JSON|@FILE', doc: 'the request body, inline or from a file (sent as application/json)', parse: body },
        { flag: 'curl', doc: 'print a curl command that sends the signed request and prints the HTTP status' },
        // The command printed names the file as it was given.
        { ...CA_FILE, doc: "--curl: the CA of the WFM's TLS certificate, for curl to trust", parse: givenFile },
      ],
    },
  ],
};

export async function run(argv: string[]): Promise<number> {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const { cert: certFile, key: keyFile, data, 'ca-file': caFile } = values as Record<string, string | undefined>;
  const [method, url, ...extra] = positionals;
  for (const [given, flag] of [
    [certFile, '--cert'],
    [keyFile, '--key'],
  ] as const)
    if (!given) throw new UsageError(`${flag}: missing: sign needs --cert FILE and --key FILE`);
  if (!method || !url) throw new UsageError(`${method ? '<URL>' : '<METHOD>'}: missing: sign needs METHOD and URL`);
  if (extra.length > 0) throw new UsageError(`${extra[0]}: unexpected argument (sign takes METHOD and URL)`);
  // The signing and certificate modules load only now: --help and a usage error cost a fraction of the start-up.
  const [{ algorithmForKey, signRequest }, { certificateKeyId, parseCertificate }] = await Promise.all([
    import('../protocol/signing.ts'),
    import('../protocol/pki.ts'),
  ]);
  const body = data === undefined ? undefined : data.startsWith('@') ? await readFile(data.slice(1)) : Buffer.from(data);
  const cert = orUsage('--cert', () => parseCertificate(readFileSync(certFile!, 'utf8')), 'not a PEM certificate');
  const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
  const privateKey = orUsage('--key', () => createPrivateKey(readFileSync(keyFile!, 'utf8')), 'not a PEM private key');
  const algorithm = algorithmForKey(createPublicKey(privateKey));
  if (!algorithm) throw new UsageError('--key: must be an EC P-256, RSA or Ed25519 private key (profile P3)');
  const signed = await signRequest({
    method: method.toUpperCase(),
    url,
    headers,
    body,
    privateKey,
    keyId: certificateKeyId(cert.rawData),
    algorithm,
  });
  const all = { ...headers, ...signed };
  if (!values.curl) {
    process.stdout.write(
      Object.entries(all)
        .map(([k, v]) => `${k}: ${v}\n`)
        .join(''),
    );
    return EXIT_OK;
  }
  const args = ['curl', '--silent', '--show-error', '--output', '/dev/null', '--write-out', '%{http_code}\\n', '-X', method.toUpperCase()];
  if (caFile) args.push('--cacert', caFile);
  for (const [k, v] of Object.entries(all)) args.push('-H', `${k}: ${v}`);
  if (data !== undefined) args.push('--data-binary', data);
  args.push(url);
  process.stdout.write(args.map(shellQuote).join(' ') + '\n');
  return EXIT_OK;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `@FILE` must name a file; anything else is the body itself. */
function body(raw: unknown, base: string): string {
  const given = text(raw);
  if (given.startsWith('@')) file(given.slice(1), base);
  return given;
}

/** A file that does not parse is a bad value of its option. */
function orUsage<T>(flag: string, read: () => T, what: string): T {
  try {
    return read();
  } catch (e) {
    throw new UsageError(`${flag}: ${what} (${(e as Error).message})`);
  }
}
