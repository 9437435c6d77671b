// `wfmck lint`: judges a capabilities JSON, an application package folder, a compose archive or a pushed artifact
// against interfaces.md, each finding with its requirement ID. The rules are pure (spec/lint); this file does I/O.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Strictness } from '../spec/profile.ts';
import { LintInputError, type LintResult } from '../spec/lint/input.ts';
import { isOciRef, parseOciRef, type OciRef } from '../spec/lint/oci-ref.ts';
import type { lintPackageFolder } from '../spec/lint/package-folder.ts';
import type { Puller } from '../spec/lint/pushed.ts';
import { exitCodeOf, lintReport } from '../spec/lint/report.ts';
import { humanReport } from '../reports/lint-text.ts';
import { DigestError, RegistryClient } from '../simulators/registry-client.ts';
import { TransportError } from '../simulators/transport/types.ts';
import { registryCredentials } from './registry-auth.ts';
import { hostPort, probeTls, untrustedMessage } from './registry-tls.ts';
import { EXIT_OK, UsageError } from '../run/options/usage.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { CA_FILE, pinsOf, REGISTRY_AUTH, RESOLVE, STRICTNESS, VENDOR } from '../run/options/option-sets.ts';
import { installPins } from '../protocol/pinned-lookup.ts';
import { nameTargets } from '../spec/network-policy.ts';

export const SPEC: CommandSpec = {
  name: 'lint',
  usage: ['<path-or-ref> [options]'],
  about: `Judges an input against interfaces.md and prints one line per finding, LEVEL  REQUIREMENT-ID  message, grouped by
file, then a summary. The kind of input is told from the argument:
  FILE.json               a DeviceCapabilities document (§2.1, §2.2)
  DIR                     an application package folder: what \`wfmck publish app\` would push (§2.7)
  FILE.tar.gz | FILE.tgz  a compose archive (§2.7 rules 1-8), read in memory and never extracted
  oci://HOST:PORT/NAME:TAG
                          a pushed package or compose component: manifest, every blob verified by digest, then
                          its description or archive (a redirect goes to that host or loopback only)
Exit 0 when nothing fails, 1 when a MUST (or, with --strictness strict, a SHOULD) finding does, 2 for usage errors
and input the kit cannot read.`,
  positionals: true,
  groups: [
    {
      options: [
        { flag: 'json', doc: 'print {input, kind, strictness, findings, notes, summary} instead' },
        VENDOR,
        {
          ...STRICTNESS,
          doc: 'strict: MUSTs and SHOULDs fail; default: MUSTs fail; lenient: MUSTs with no known ambiguity or kit reading fail (profile P9, default default)',
        },
        {
          flag: 'app-description',
          value: 'F',
          doc: 'folder: the application description inside DIR; default its only top-level .yaml file',
        },
      ],
    },
    {
      title: 'oci:// references',
      options: [
        { ...CA_FILE, doc: "the CA (PEM) of the registry's https certificate, when the system's CAs do not cover it" },
        RESOLVE,
        ...REGISTRY_AUTH,
      ],
      note: '  The scheme follows the registry: https when it completes a TLS handshake, else http (said on stderr).\n  Without --username or --token the registry is read anonymously.',
    },
  ],
};

/** Bigger blobs than any compose archive or package part the kit expects (§8 sets no limit). */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

export function run(argv: string[]): Promise<number> {
  return lint(argv, (text) => void process.stdout.write(text));
}

/** The command with its output as a seam, so tests can run it in-process. */
export async function lint(argv: string[], write: (text: string) => void): Promise<number> {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (write(helpText(SPEC)), EXIT_OK);
  installPins(pinsOf(values));
  const [input, ...extra] = positionals;
  if (!input) throw new UsageError('<path-or-ref>: missing: name one file, folder or oci:// reference');
  if (extra.length > 0) throw new UsageError(`${extra[0]}: unexpected argument (lint judges one path or oci:// reference)`);
  const strictness = (values.strictness ?? 'default') as Strictness;
  const vendor = (values.vendor ?? 'platform') as string;
  const result = isOciRef(input)
    ? await lintRef(input, vendor, values)
    : await lintPath(input, vendor, values['app-description'] as string | undefined);
  const report = lintReport(input, result, strictness);
  write(values.json ? `${JSON.stringify(report, null, 2)}\n` : humanReport(report));
  return exitCodeOf(report);
}

// Each kind's rules (ajv, tar-stream) load only once the input is known to be of that kind, the transport (undici)
// only for an oci:// reference: --help and a usage error cost a fraction of the start-up.
async function lintPath(input: string, vendor: string, description: string | undefined): Promise<LintResult> {
  const info = await stat(input).catch(() => {
    throw new LintInputError(`${input}: no such file or folder`);
  });
  if (info.isDirectory()) {
    const { lintPackageFolder } = await import('../spec/lint/package-folder.ts');
    return lintPackageFolder(await readFolder(input, description), vendor);
  }
  if (/\.json$/i.test(input)) {
    const { lintCapabilities } = await import('../spec/lint/capabilities.ts');
    return lintCapabilities(await readFile(input, 'utf8'), input);
  }
  if (/\.(tar\.gz|tgz)$/i.test(input)) {
    if (info.size > MAX_BLOB_BYTES)
      throw new LintInputError(`${input} is ${info.size} bytes, over the kit's ${MAX_BLOB_BYTES}`, 'WFMCK_E_ARCHIVE_TOO_LARGE');
    const { composeArchiveFindings } = await import('../spec/lint/compose-archive.ts');
    const judged = await composeArchiveFindings(new Uint8Array(await readFile(input)), input);
    return { kind: 'compose-archive', ...judged };
  }
  throw new UsageError(
    `${input}: lint reads a .json capabilities document, a package folder, a .tar.gz/.tgz compose archive or an oci:// reference`,
  );
}

/** Files under the folder (a symlink counts when it leads to a file inside, as publish reads it), and the YAML texts. */
async function readFolder(root: string, description: string | undefined): Promise<Parameters<typeof lintPackageFolder>[0]> {
  const realRoot = await realpath(root);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const paths: string[] = [];
  for (const e of entries) {
    const full = join(e.parentPath, e.name);
    if (e.isSymbolicLink() && !(await fileInside(realRoot, full))) continue;
    if (e.isFile() || e.isSymbolicLink()) paths.push(relative(root, full).split(sep).join('/'));
  }
  const wanted = paths.filter((p) => p === description || (!p.includes('/') && /\.ya?ml$/i.test(p)));
  const yamlTexts = new Map(await Promise.all(wanted.map(async (p) => [p, await readFile(join(root, p), 'utf8')] as const)));
  return { paths, yamlTexts, ...(description !== undefined ? { description } : {}) };
}

async function fileInside(realRoot: string, path: string): Promise<boolean> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined || !(await stat(real)).isFile()) return false;
  const rel = relative(realRoot, real);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

async function lintRef(input: string, vendor: string, values: Record<string, unknown>): Promise<LintResult> {
  const parsed = parseOciRef(input);
  if (!parsed.ok) throw new UsageError(parsed.reason);
  // The registry the user named; a redirect elsewhere (not loopback) is refused (spec/network-policy.ts).
  nameTargets([`oci://${parsed.ref.registry}`]);
  const caFile = values['ca-file'] as string | undefined;
  const ca = caFile === undefined ? undefined : await readFile(caFile, 'utf8');
  const baseUrl = await registryBase(input, parsed.ref, ca, caFile);
  const [{ createTransport }, { lintPushed }] = await Promise.all([
    import('../simulators/transport/undici-transport.ts'),
    import('../spec/lint/pushed.ts'),
  ]);
  const transport = createTransport({ baseUrl, timeoutMs: 60_000, maxResponseBytes: MAX_BLOB_BYTES, ...(ca !== undefined ? { ca } : {}) });
  try {
    const client = new RegistryClient({ transport, auth: registryCredentials(values), baseUrl });
    return await lintPushed(parsed.ref, puller(client, parsed.ref), vendor);
  } catch (e) {
    if (e instanceof TransportError) throw new LintInputError(`${input}: ${e.message}`, e.code);
    throw e;
  } finally {
    await transport.close();
  }
}

/**
 * The scheme follows the registry: https when it completes a TLS handshake (an untrusted certificate names --ca-file),
 * else plain http, said on stderr.
 */
async function registryBase(input: string, ref: OciRef, ca: string | undefined, caFile: string | undefined): Promise<string> {
  const https = `https://${ref.registry}`;
  const { host, port } = hostPort(new URL(https));
  const probe = await probeTls(host, port, ca);
  if (probe.kind === 'tls') return https;
  if (probe.kind === 'untrusted') throw new LintInputError(`${input}: ${untrustedMessage(probe.code, caFile)}`, 'WFMCK_E_TLS');
  if (probe.kind === 'unreachable') throw new LintInputError(`${input}: ${probe.code}: ${probe.message}`, 'WFMCK_E_CONNECTION');
  process.stderr.write(
    `wfmck lint: ${ref.registry} did not complete a TLS handshake (${probe.code}); reading it over plain http${caFile === undefined ? '' : `, so --ca-file ${caFile} is not used`}\n`,
  );
  return `http://${ref.registry}`;
}

/** The registry seen through RegistryClient: manifests by tag or digest, blobs verified by digest (§2.7 rule 8). */
function puller(client: RegistryClient, ref: OciRef): Puller {
  return {
    async manifest() {
      const got = await client.getManifest(ref.name, ref.reference);
      if (got.response.status !== 200)
        throw new LintInputError(`oci://${ref.registry}/${ref.name}: manifest ${ref.reference} answered HTTP ${got.response.status}`);
      return got.bytes;
    },
    async blob(digest) {
      try {
        const got = await client.getBlob(ref.name, digest, { maxBytes: MAX_BLOB_BYTES });
        return got.response.status === 200
          ? { bytes: got.bytes }
          : { problem: 'missing', message: `GET blob answered HTTP ${got.response.status}` };
      } catch (e) {
        if (e instanceof DigestError) return { problem: 'digest', message: e.message };
        throw e;
      }
    },
  };
}
