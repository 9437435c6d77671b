// `wfmck publish app|compose`: builds a §2.7 application package or compose component from a folder and pushes it.
import { readFile, writeFile } from 'node:fs/promises';
import { OCI_REPOSITORY_PATTERN } from '../spec/schemas/common.ts';
import type { BuiltArtifact } from '../simulators/publish/artifact.ts';
import { RegistryClient, type RegistryAuth } from '../simulators/registry-client.ts';
import { registryCredentials } from './registry-auth.ts';
import { hostPort, probeTls, tlsError, untrustedMessage } from './registry-tls.ts';
import { existsSync, statSync } from 'node:fs';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, InputError, UsageError } from '../run/options/usage.ts';
import { pattern } from '../run/options/args.ts';
import { nameTargets } from '../spec/network-policy.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { CA_FILE, pinsOf, REGISTRY, REGISTRY_AUTH, RESOLVE, VENDOR } from '../run/options/option-sets.ts';
import { installPins } from '../protocol/pinned-lookup.ts';

export const SPEC: CommandSpec = {
  name: 'publish',
  usage: [
    'app <dir> --registry URL --repository NAME [options]',
    'compose <dir> --registry URL --repository NAME --version X.Y.Z [options]',
  ],
  about: `Builds an application package (app: the application description YAML and its resource files) or a compose
component (compose: a deterministic .tar.gz of the folder) per interfaces.md §2.7, pushes its blobs (those the
registry already has are skipped) and its manifest, and prints one JSON line:
{reference, manifestDigest, blobs, skipped}, the reference as \`wfmck lint\` reads it (oci://HOST:PORT/NAME:TAG).
The kit contacts that registry and loopback only: an upload Location elsewhere is refused. Exit 0 when pushed, 1
when the folder breaks a rule of §2.7, 2 for usage errors and a registry that refuses the push (or whose
certificate --ca-file does not cover).`,
  positionals: true,
  groups: [
    {
      options: [
        { ...REGISTRY, doc: 'registry origin, http or https (not needed with --dry-run)' },
        {
          flag: 'repository',
          value: 'NAME',
          doc: 'repository namespace, {name} of §4.7 (not needed with --dry-run)',
          parse: pattern(new RegExp(OCI_REPOSITORY_PATTERN), 'an OCI repository name (lowercase path components)'),
        },
        { flag: 'version', value: 'X.Y.Z', doc: 'compose: component version, SemVer 2.0 without a leading v; also the tag' },
        {
          flag: 'name',
          value: 'NAME',
          doc: "compose: component name (the top-level directory); default compose.yaml's name, else the folder's",
        },
        { flag: 'title', value: 'TEXT', doc: 'compose: org.opencontainers.image.title layer annotation (default the name)' },
        {
          flag: 'authors',
          value: 'TEXT',
          doc: 'compose: org.opencontainers.image.authors layer annotation (default: the catalog authors of an application description that lists the component, else "<name> maintainers")',
        },
        {
          flag: 'description',
          value: 'TEXT',
          doc: 'compose: org.opencontainers.image.description layer annotation (default: that application description\'s description, else "The <name> compose component, version X.Y.Z.")',
        },
        { flag: 'out', value: 'FILE', doc: 'compose: also write the archive to FILE' },
        {
          flag: 'app-description',
          value: 'F',
          doc: "app: the application description inside <dir>; default its only top-level .yaml file. compose: the application description whose authors and description are the defaults of --authors and --description; default one that lists the component, at the top of <dir>'s parent or of a folder beside <dir>",
        },
        VENDOR,
        {
          flag: 'chunk-size',
          value: 'N',
          doc: 'upload each blob in PATCH chunks of N bytes (default: monolithic POST then PUT)',
          parse: pattern(/^[1-9]\d*$/, 'a positive number of bytes'),
        },
        { ...CA_FILE, doc: "the CA (PEM) of an https registry's certificate, when the system's CAs do not cover it" },
        RESOLVE,
        ...REGISTRY_AUTH,
        { flag: 'dry-run', doc: 'build and print the manifest; push nothing' },
      ],
    },
  ],
};

type Values = Record<string, unknown>;

export async function run(argv: string[]): Promise<number> {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  installPins(pinsOf(values));
  const [kind, dir, ...extra] = positionals;
  if (kind !== 'app' && kind !== 'compose')
    throw new UsageError(kind === undefined ? '<kind>: missing: app <dir> or compose <dir>' : `${kind}: not app or compose`);
  if (!dir) throw new UsageError(`<dir>: missing: publish ${kind} <dir>`);
  if (extra.length > 0) throw new UsageError(`${extra[0]}: unexpected argument (publish ${kind} takes one folder)`);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`${dir}: no such folder`);
  const opts = checkOptions(kind, values);
  // The builders (ajv, tar-stream) and the transport (undici) load only now: --help and a usage error cost a fraction
  // of the start-up.
  const { PublishError } = await import('../simulators/publish/artifact.ts');
  try {
    const { artifact, report } = kind === 'app' ? await buildApp(dir, values, opts.vendor) : await buildCompose(dir, values, opts.vendor);
    if (values['dry-run']) return printDryRun(artifact, opts, report);
    const target = opts.target!;
    // The registry the user named; an upload Location elsewhere (not loopback) is refused (spec/network-policy.ts).
    nameTargets([target.registry]);
    const ca = opts.ca === undefined ? undefined : await readFile(opts.ca, 'utf8');
    if (target.registry.protocol === 'https:') await checkTls(target.registry, ca, opts.ca);
    const [{ createTransport }, { pushArtifact }] = await Promise.all([
      import('../simulators/transport/undici-transport.ts'),
      import('../simulators/publish/push.ts'),
    ]);
    const transport = createTransport({ baseUrl: target.registry.origin, timeoutMs: 120_000, ...(ca !== undefined ? { ca } : {}) });
    try {
      const client = new RegistryClient({ transport, auth: opts.auth, baseUrl: target.registry.origin });
      const pushed = await pushArtifact(client, target.repository, artifact, opts.chunkSize ? { chunkSize: opts.chunkSize } : {});
      // As `wfmck lint` reads it back: oci://HOST:PORT/NAME:TAG.
      const reference = `oci://${target.registry.host}/${target.repository}:${pushed.tag}`;
      process.stdout.write(
        `${JSON.stringify({ reference, manifestDigest: pushed.manifestDigest, blobs: pushed.blobs, skipped: pushed.skipped })}\n`,
      );
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

/** Before a push over https: a certificate the CA does not cover names --ca-file; a registry without TLS names http. */
async function checkTls(registry: URL, ca: string | undefined, caFile: string | undefined): Promise<void> {
  const { host, port } = hostPort(registry);
  const probe = await probeTls(host, port, ca);
  if (probe.kind === 'untrusted') throw tlsError(untrustedMessage(probe.code, caFile));
  if (probe.kind === 'not-tls')
    throw tlsError(
      `${registry.host} did not complete a TLS handshake (${probe.code}): if it serves plain http, give --registry http://${registry.host}`,
    );
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
  if (kind === 'compose' && !str('version')) throw new UsageError('--version: publish compose needs --version X.Y.Z');
  for (const k of kind === 'app' ? ['version', 'name', 'title', 'authors', 'description', 'out'] : []) {
    if (str(k) !== undefined) throw new UsageError(`--${k}: not an option of publish ${kind}`);
  }
  const chunk = str('chunk-size');
  const registry = str('registry');
  const repository = str('repository');
  if (!values['dry-run'] && (!registry || !repository))
    throw new UsageError(`--${registry ? 'repository' : 'registry'}: publish needs --registry and --repository (or --dry-run)`);
  const checked: Checked = { vendor, auth: registryCredentials(values) };
  if ((registry === undefined) !== (repository === undefined))
    throw new UsageError(`--${registry === undefined ? 'registry' : 'repository'}: missing: --registry and --repository go together`);
  if (registry !== undefined && repository !== undefined) checked.target = { registry: new URL(registry), repository };
  if (chunk !== undefined) checked.chunkSize = Number(chunk);
  if (str('ca-file') !== undefined) checked.ca = str('ca-file')!;
  return checked;
}

async function buildApp(
  dir: string,
  values: Values,
  vendor: string,
): Promise<{ artifact: BuiltArtifact; report: Record<string, unknown> }> {
  const description = values['app-description'] as string | undefined;
  const { buildAppPackage } = await import('../simulators/publish/app-package.ts');
  const artifact = await buildAppPackage(dir, { vendor, ...(description ? { description } : {}) });
  return { artifact, report: { name: artifact.name } };
}

async function buildCompose(
  dir: string,
  values: Values,
  vendor: string,
): Promise<{ artifact: BuiltArtifact; report: Record<string, unknown> }> {
  const str = (k: string) => values[k] as string | undefined;
  const version = str('version')!;
  const [{ buildComposeArchive, buildComposeArtifact }, { composeAnnotationDefaults }] = await Promise.all([
    import('../simulators/publish/compose.ts'),
    import('../simulators/publish/compose-defaults.ts'),
  ]);
  const archive = await buildComposeArchive(dir, { version, ...(str('name') ? { name: str('name')! } : {}) });
  for (const x of archive.excluded) process.stderr.write(`wfmck publish: left out ${x.path}: ${x.reason}\n`);
  if (str('out')) await writeFile(str('out')!, archive.bytes);
  // The RECOMMENDED annotations a flag did not give, so `wfmck lint` of what is pushed warns of nothing (said on stderr).
  const given = { authors: str('authors'), description: str('description') };
  const defaults =
    given.authors === undefined || given.description === undefined
      ? await composeAnnotationDefaults(dir, { name: archive.name, version }, str('app-description'))
      : undefined;
  const annotations = {
    title: str('title') ?? archive.name,
    authors: given.authors ?? defaults!.authors,
    description: given.description ?? defaults!.description,
  };
  for (const k of ['authors', 'description'] as const) {
    if (given[k] === undefined)
      process.stderr.write(
        `wfmck publish: --${k} not given: ${JSON.stringify(annotations[k])}${defaults!.from ? ` (from ${defaults!.from})` : ''}\n`,
      );
  }
  const artifact = buildComposeArtifact(archive.bytes, { vendor, version, ...annotations });
  return {
    artifact,
    report: { name: archive.name, excluded: archive.excluded.map((x) => x.path), ...(str('out') ? { out: str('out') } : {}) },
  };
}

function printDryRun(artifact: BuiltArtifact, opts: Checked, report: Record<string, unknown>): number {
  const reference = opts.target ? `oci://${opts.target.registry.host}/${opts.target.repository}:${artifact.tag}` : undefined;
  const blobs = artifact.blobs.map((b) => ({ digest: b.digest, size: b.bytes.byteLength, mediaType: b.mediaType }));
  const manifest: unknown = JSON.parse(new TextDecoder().decode(artifact.manifest));
  const line = {
    ...(reference ? { reference } : {}),
    tag: artifact.tag,
    manifestDigest: artifact.manifestDigest,
    blobs,
    skipped: 0,
    dryRun: true,
    ...report,
    manifest,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return EXIT_OK;
}
