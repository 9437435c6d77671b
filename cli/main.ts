// The `wfmck` command: one sub-command per job.
import { EXIT_OK, EXIT_USAGE, errorLine, isUsageError, usageLines, type CommandResult } from '../run/options/usage.ts';
import { didYouMean } from '../run/options/suggest.ts';
import { endWithParent } from '../run/processes/watchdog.ts';

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run(argv: string[]): Promise<CommandResult> }> }> = {
  serve: { summary: 'start the embedded reference WFM, identity role and OCI registry', load: () => import('./serve.ts') },
  cert: { summary: 'issue a device certificate from a device CA (and its OnboardingRequest body)', load: () => import('./cert.ts') },
  sign: {
    summary: 'sign one Device API request (RFC 9421, profile P3), or print a curl command that sends it',
    load: () => import('./sign.ts'),
  },
  fleet: {
    summary: 'simulate a fleet of devices and gateways against a WFM and write fleet-summary.json',
    load: () => import('./fleet.ts'),
  },
  client: {
    summary: "run the kit's own simulated device client from a startClient input (an attended run's folder)",
    load: () => import('./client.ts'),
  },
  merge: { summary: "merge the fleet-summary.json of a fleet's shards (--shard i/n) into one", load: () => import('./merge-fleet.ts') },
  'merge-reports': {
    summary: 'join the reports of a sharded run (wfmck run --shard i/n) into one verdict',
    load: () => import('./merge-reports.ts'),
  },
  init: {
    summary: 'write wfmck.config.yaml: persona, edition, targets, TLS material, hooks, your component (asks on a terminal)',
    load: () => import('./init.ts'),
  },
  run: {
    summary: 'certify a WFM, identity role and registry (or the embedded default): conformance.json/html, JUnit',
    load: () => import('./run.ts'),
  },
  faults: {
    summary: 'prove every check can fail: run the suites against each fault of the reference services (faults.json)',
    load: () => import('./faults.ts'),
  },
  coverage: {
    summary: 'print spec/coverage.txt: each requirement, the tests that check it, the faults that prove them (--write, --check)',
    load: () => import('./coverage.ts'),
  },
  publish: {
    summary: 'build an application package or compose component from a folder (§2.7) and push it to a registry',
    load: () => import('./publish.ts'),
  },
  lint: {
    summary: 'judge a capabilities JSON, package folder, compose archive or pushed artifact; findings with requirement IDs',
    load: () => import('./lint.ts'),
  },
  doctor: {
    summary: "check what a run (or, with --tests, the kit's own tests) needs: Node, packages, Chromium, config, hooks, targets",
    load: () => import('./doctor.ts'),
  },
  'verify-report': {
    summary: 'check the signature and file digests of a report folder signed by `wfmck run --sign`',
    load: () => import('./verify-report.ts'),
  },
  summary: {
    summary: "print a report folder's verdict, counts and failure causes (--markdown: for a CI job summary)",
    load: () => import('./summary.ts'),
  },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) return (void process.stdout.write(helpText()), EXIT_USAGE);
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) return (void process.stdout.write(helpText()), EXIT_OK);
  if (name === '--version') {
    const pkg = await import('../package.json', { with: { type: 'json' } });
    process.stdout.write(`${pkg.default.version}\n`);
    return EXIT_OK;
  }
  // `wfmck help <command>` is `wfmck <command> --help`, so the two can never differ.
  if (name === 'help')
    return rest.length > 1 ? usage(`${rest[1]}: unexpected argument (wfmck help <command>)`) : dispatch(rest[0]!, ['--help']);
  return dispatch(name, rest);
}

/** Commands that run until stopped: each ends when the process that started it goes away (run/processes/watchdog.ts). */
const ENDS_WITH_PARENT = new Set(['serve', 'fleet', 'client', 'run', 'faults']);

async function dispatch(name: string, argv: string[]): Promise<number> {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command)
    return usage(
      name.startsWith('-')
        ? `${name}: unknown option${didYouMean(name.replace(/^--?/, ''), ['help', 'version'], (n) => `--${n}`)}`
        : `${name}: no such command${didYouMean(name, Object.keys(COMMANDS))}`,
    );
  if (ENDS_WITH_PARENT.has(name)) endWithParent(name);
  try {
    return await (await command.load()).run(argv);
  } catch (err) {
    if (isUsageError(err)) process.stderr.write(usageLines(name, err.message));
    else process.stderr.write(errorLine(name, err as Error));
    return EXIT_USAGE;
  }
}

function usage(message: string): number {
  process.stderr.write(usageLines(undefined, message));
  return EXIT_USAGE;
}

function helpText(): string {
  const rows = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(14)} ${c.summary}`);
  return [
    'usage: wfmck <command> [options]',
    '       wfmck help <command>    the options of a command (the same as wfmck <command> --help)',
    "       wfmck --version         the kit's version",
    '',
    'commands:',
    ...rows,
    '',
    'Exit codes, the same in every command: 0 success; 1 what was judged failed (a requirement, a signature, a fleet);',
    '2 no verdict: a usage or configuration error, a missing or unreadable input, an unreachable target, a kit error.',
    '',
  ].join('\n');
}
