// `wfmck publish app|compose`: builds a §2.7 application package or compose component from a folder and pushes it.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { OCI_REPOSITORY_PATTERN } from '../spec/schemas/common.ts';
import { buildAppPackage } from '../simulators/publish/app-package.ts';
import { PublishError, type BuiltArtifact } from '../simulators/publish/artifact.ts';
import { buildComposeArchive, buildComposeArtifact } from '../simulators/publish/compose.ts';
import { pushArtifact } from '../simulators/publish/push.ts';
import { RegistryClient, type RegistryAuth } from '../simulators/registry-client.ts';
import { createTransport } from '../simulators/transport/undici-transport.ts';
import { parseLoopbackUrl } from '../spec/loopback.ts';
import { registryCredentials } from './registry-auth.ts';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError } from '../run/usage.ts';

const HELP = `usage: wfmck publish app <dir> --registry URL --repository NAME [options]
       wfmck publish compose <dir> --registry URL --repository NAME --version X.Y.Z [options]

Builds an application package (app: the application description YAML and its resource files) or a compose
component (compose: a deterministic .tar.gz of the folder) per interfaces.md §2.7, pushes its blobs (those the
registry already has are skipped) and its manifest, and prints one JSON line:
{reference, manifestDigest, blobs, skipped}. Only loopback registries are accepted.

  --registry URL        registry origin, http or https on a loopback host (not needed with --dry-run)
  --repository NAME     repository namespace, {name} of §4.7 (not needed with --dry-run)
  --version X.Y.Z       compose: component version, SemVer 2.0 without a leading v; also the tag
  --name NAME           compose: component name (the top-level directory); default compose.yaml's name, else the folder's
  --title, --authors, --description TEXT
                        compose: org.opencontainers.image.* layer annotations (title defaults to the name)
  --out FILE            compose: also write the archive to FILE
  --app-description F   app: the application description inside <dir>; default its only top-level .yaml file
  --vendor TOKEN        vendor token of media types and annotation keys (profile P1, default platform)
  --chunk-size N        upload each blob in PATCH chunks of N bytes (default: monolithic POST then PUT)
  --ca FILE             PEM trust anchors for an https registry
  --username U          basic credentials, with --password or WFMCK_REGISTRY_PASSWORD; also used at the
                        registry's token endpoint when it answers 401 with a Bearer challenge
  --token T             a bearer token
  --dry-run             build and print the manifest; push nothing
`;

type Values = Record<string, string | boolean | undefined>;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      registry: { type: 'string' },
      repository: { type: 'string' },
      version: { type: 'string' },
      name: { type: 'string' },
      title: { type: 'string' },
      authors: { type: 'string' },
      description: { type: 'string' },
      out: { type: 'string' },
      'app-description': { type: 'string' },
      vendor: { type: 'string' },
      'chunk-size': { type: 'string' },
      ca: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      token: { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }) as { values: Values; positionals: string[] };
  if (values.help) return void process.stdout.write(HELP), EXIT_OK;
  const [kind, dir, ...extra] = positionals;
  if ((kind !== 'app' && kind !== 'compose') || !dir || extra.length > 0) throw new UsageError(`publish needs "app <dir>" or "compose <dir>"\n\n${HELP}`);
  const opts = checkOptions(kind, values);
  try {
    const { artifact, report } = kind === 'app' ? await buildApp(dir, values, opts.vendor) : await buildCompose(dir, values, opts.vendor);
    if (values['dry-run']) return printDryRun(artifact, opts, report);
    const target = opts.target!;
    const transport = createTransport({ baseUrl: target.registry.origin, timeoutMs: 120_000, ...(opts.ca ? { ca: await readFile(opts.ca, 'utf8') } : {}) });
    try {
      const client = new RegistryClient({ transport, auth: opts.auth, baseUrl: target.registry.origin });
      const pushed = await pushArtifact(client, target.repository, artifact, opts.chunkSize ? { chunkSize: opts.chunkSize } : {});
      const reference = `${target.registry.host}/${target.repository}:${pushed.tag}`;
      process.stdout.write(`${JSON.stringify({ reference, manifestDigest: pushed.manifestDigest, blobs: pushed.blobs, skipped: pushed.skipped })}\n`);
      return EXIT_OK;
    } finally {
      await transport.close();
    }
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    process.stderr.write(`wfmck publish: ${e.code}: ${e.message}\n`);
    // A package that breaks §2.7 fails a MUST; a registry that refuses the push is a target problem.
    return e.code === 'WFMCK_E_PUBLISH_PUSH' ? EXIT_USAGE : EXIT_FAIL;
  }
}

interface Checked {
  vendor: string;
  target?: { registry: URL; repository: string };
  auth: RegistryAuth;
  chunkSize?: number;
  ca?: string;
}

function checkOptions(kind: string, values: Values): Checked {
  const str = (k: string) => values[k] as string | undefined;
  const vendor = str('vendor') ?? 'platform';
  if (!/^[a-z0-9]+$/.test(vendor)) throw new UsageError('--vendor takes lowercase letters and digits');
  if (kind === 'compose' && !str('version')) throw new UsageError('publish compose needs --version X.Y.Z');
  for (const k of kind === 'app' ? ['version', 'name', 'title', 'authors', 'description', 'out'] : ['app-description']) {
    if (str(k) !== undefined) throw new UsageError(`--${k} is not an option of publish ${kind}`);
  }
  const chunk = str('chunk-size');
  if (chunk !== undefined && !/^[1-9]\d*$/.test(chunk)) throw new UsageError(`--chunk-size takes a positive number of bytes, not "${chunk}"`);
  const registry = str('registry');
  const repository = str('repository');
  if (!values['dry-run'] && (!registry || !repository)) throw new UsageError(`publish needs --registry and --repository (or --dry-run)\n\n${HELP}`);
  const checked: Checked = { vendor, auth: registryCredentials(values) };
  if (registry !== undefined || repository !== undefined) checked.target = { registry: loopbackRegistry(registry ?? ''), repository: repositoryName(repository ?? '') };
  if (chunk !== undefined) checked.chunkSize = Number(chunk);
  if (str('ca') !== undefined) checked.ca = str('ca')!;
  return checked;
}

/** This machine never sends traffic elsewhere: only http(s) on 127.0.0.0/8, ::1 or localhost. */
function loopbackRegistry(value: string): URL {
  try {
    return parseLoopbackUrl(value, '--registry');
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function repositoryName(value: string): string {
  if (!new RegExp(OCI_REPOSITORY_PATTERN).test(value)) throw new UsageError(`--repository "${value}" is not an OCI repository name (lowercase path components)`);
  return value;
}

async function buildApp(dir: string, values: Values, vendor: string): Promise<{ artifact: BuiltArtifact; report: Record<string, unknown> }> {
  const description = values['app-description'] as string | undefined;
  const artifact = await buildAppPackage(dir, { vendor, ...(description ? { description } : {}) });
  return { artifact, report: { name: artifact.name } };
}

async function buildCompose(dir: string, values: Values, vendor: string): Promise<{ artifact: BuiltArtifact; report: Record<string, unknown> }> {
  const str = (k: string) => values[k] as string | undefined;
  const version = str('version')!;
  const archive = await buildComposeArchive(dir, { version, ...(str('name') ? { name: str('name')! } : {}) });
  for (const x of archive.excluded) process.stderr.write(`wfmck publish: left out ${x.path}: ${x.reason}\n`);
  if (str('out')) await writeFile(str('out')!, archive.bytes);
  const annotations = { title: str('title') ?? archive.name, ...pick(values, ['authors', 'description']) };
  const artifact = buildComposeArtifact(archive.bytes, { vendor, version, ...annotations });
  return { artifact, report: { name: archive.name, excluded: archive.excluded.map((x) => x.path), ...(str('out') ? { out: str('out') } : {}) } };
}

function pick(values: Values, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => typeof values[k] === 'string').map((k) => [k, values[k] as string]));
}

function printDryRun(artifact: BuiltArtifact, opts: Checked, report: Record<string, unknown>): number {
  const reference = opts.target ? `${opts.target.registry.host}/${opts.target.repository}:${artifact.tag}` : undefined;
  const blobs = artifact.blobs.map((b) => ({ digest: b.digest, size: b.bytes.byteLength, mediaType: b.mediaType }));
  const manifest: unknown = JSON.parse(new TextDecoder().decode(artifact.manifest));
  const line = { ...(reference ? { reference } : {}), tag: artifact.tag, manifestDigest: artifact.manifestDigest, blobs, skipped: 0, dryRun: true, ...report, manifest };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return EXIT_OK;
}
