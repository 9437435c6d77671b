// `wfmck doctor`: what a run (or the kit's own tests, --tests) needs, checked in seconds, one line each with the exact
// command that fixes it. `npm test` starts with `wfmck doctor --tests`, so a missing package stops it at once.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { CONFIG_OPTION, resolveConfig, type Config } from '../run/options/config.ts';
import { CA_FILE, RESOLVE, TARGETS } from '../run/options/option-sets.ts';
import { installPins } from '../protocol/pinned-lookup.ts';
import { helpText, parseCommand, type CommandSpec, type Option } from '../run/options/options.ts';
import { EXIT_FAIL, EXIT_OK } from '../run/options/usage.ts';
import { connectionProblem, configurationProblems, targetOrigins } from './preflight.ts';
import { schemeProblem } from './scheme-probe.ts';
import { checkHookScript } from './hook-scripts.ts';
import { REAL_REGISTRY_BIN } from '../scripted/real-registry.ts';
import { installCommand, installMissing, SYSTEM, type NeededPackage } from './doctor-install.ts';

const TESTS: Option = {
  flag: 'tests',
  doc: "also check what the kit's own tests need (npm test): Chromium, Debian's docker-registry and tmux",
};

export const SPEC: CommandSpec = {
  name: 'doctor',
  usage: ['[--config FILE] [--wfm URL] [--identity URL] [--registry URL] [--ca-file FILE] [--tests]'],
  about: `Checks what \`wfmck run\` needs, one line each, with the command that fixes a problem: Node, the npm packages,
the configuration (as run reads it: flags, env, YAML), every CA, certificate and key file, every hook command, and that
each target accepts a connection. With --tests, also Chromium, docker-registry and tmux, which the kit's own tests drive:
as root with apt-get it installs the missing ones, else it names the one command that does.
Exit 0 when all hold, 1 when one does not, 2 for a usage error.`,
  groups: [{ options: [CONFIG_OPTION, ...TARGETS, CA_FILE, RESOLVE, TESTS] }],
};

/** Where Debian's chromium package puts the browser the HTML test drives; WFMCK_CHROMIUM_BIN overrides it. */
export const CHROMIUM_BIN = process.env.WFMCK_CHROMIUM_BIN ?? '/usr/bin/chromium';
/** Debian's tmux; WFMCK_TMUX_BIN overrides it. */
const TMUX_BIN = process.env.WFMCK_TMUX_BIN ?? '/usr/bin/tmux';

interface TestBinary {
  pkg: string;
  what: string;
  bin: string;
  /** Where the Debian package puts it: only there can doctor install it. */
  debian: string;
}

/** The Debian packages the kit's own tests drive. */
function testBinaries(): TestBinary[] {
  return [
    { pkg: 'chromium', what: 'Chromium (the HTML report test drives it)', bin: CHROMIUM_BIN, debian: '/usr/bin/chromium' },
    {
      pkg: 'docker-registry',
      what: "docker-registry (the registry suites' real OCI registry)",
      bin: REAL_REGISTRY_BIN,
      debian: '/usr/bin/docker-registry',
    },
    { pkg: 'tmux', what: 'tmux (the terminal the init and serve tests type into)', bin: TMUX_BIN, debian: '/usr/bin/tmux' },
  ];
}

const needed = (bins: readonly TestBinary[]): NeededPackage[] =>
  bins.map((b) => ({ pkg: b.pkg, present: existsSync(b.bin), installable: b.bin === b.debian }));

interface Line {
  ok: boolean;
  what: string;
  /** The command or setting that fixes it. */
  fix?: string;
}

export async function run(argv: string[]): Promise<number> {
  const { help, values } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const tests = values['tests'] === true;
  // As root with apt-get (CI, a fresh container) the packages are installed here; diagnose then checks again.
  if (tests) await installMissing(needed(testBinaries()), SYSTEM);
  const lines = await diagnose(
    argv.filter((a) => a !== '--tests'),
    tests,
  );
  for (const l of lines) process.stdout.write(`${l.ok ? 'ok  ' : 'FAIL'}  ${l.what}${l.fix ? `\n        fix: ${l.fix}` : ''}\n`);
  const failed = lines.filter((l) => !l.ok).length;
  process.stdout.write(failed === 0 ? 'wfmck doctor: all good\n' : `wfmck doctor: ${failed} problem${failed === 1 ? '' : 's'}\n`);
  return failed === 0 ? EXIT_OK : EXIT_FAIL;
}

/** Every check, in the order a newcomer meets them. */
export async function diagnose(runArgv: readonly string[], tests: boolean, bins = testBinaries()): Promise<Line[]> {
  const lines: Line[] = [node(), packages()];
  if (tests) lines.push(...binaryLines(bins));
  let config: Config;
  try {
    config = resolveConfig([...runArgv], process.env, process.cwd());
  } catch (e) {
    return [
      ...lines,
      {
        ok: false,
        what: `configuration: ${(e as Error).message.split('\n')[0]}`,
        fix: 'wfmck run --help lists every setting; wfmck init writes a wfmck.config.yaml',
      },
    ];
  }
  installPins(config.resolve ?? []);
  lines.push({
    ok: true,
    what: `configuration: ${config.configFile ?? 'none (flags and env only)'}${namesNoTarget(config) ? '; no target named: wfmck run certifies the embedded default' : ''}`,
  });
  for (const p of configurationProblems(config)) lines.push({ ok: false, what: p, fix: 'correct the setting named (wfmck run --help)' });
  lines.push(...hookLines(config));
  const ca = config.tls.caFiles.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8'));
  for (const [what, url] of targetOrigins(config)) {
    const why = await connectionProblem(url, ca, 5_000, config.profile.edition !== 'miaf');
    const scheme = why === undefined ? await schemeProblem(url) : undefined;
    if (scheme !== undefined) {
      lines.push({ ok: false, what: `${what} ${url.origin} ${scheme}`, fix: 'name the target with the scheme its port speaks' });
      continue;
    }
    lines.push(
      why === undefined
        ? { ok: true, what: `${what} ${url.origin} accepts connections` }
        : {
            ok: false,
            what: `${what} ${url.origin}: ${why}`,
            fix: /TLS/.test(why)
              ? "--ca-file FILE (tls.caFiles): the CA of the target's certificate"
              : 'start the target, or correct its URL',
          },
    );
  }
  return lines;
}

function namesNoTarget(config: Config): boolean {
  return Object.entries(config.targets).every(([k, v]) => k === 'registryRepository' || v === undefined);
}

function node(): Line {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20
    ? { ok: true, what: `Node ${process.versions.node}` }
    : { ok: false, what: `Node ${process.versions.node}: wfmck needs 20 or newer`, fix: 'install Node 20 (https://nodejs.org)' };
}

function packages(): Line {
  try {
    const version = (createRequire(import.meta.url)('@playwright/test/package.json') as { version: string }).version;
    return { ok: true, what: `npm packages installed (@playwright/test ${version})` };
  } catch {
    return { ok: false, what: 'npm packages are not installed', fix: 'npm ci' };
  }
}

/** One line per binary; the last missing one carries the one command that installs every missing package. */
function binaryLines(bins: readonly TestBinary[]): Line[] {
  const missing = bins.filter((b) => !existsSync(b.bin));
  const fix = installCommand(
    missing.map((b) => b.pkg),
    SYSTEM.uid === 0,
  );
  return bins.map((b) =>
    !missing.includes(b)
      ? { ok: true, what: `${b.what}: ${b.bin}` }
      : { ok: false, what: `${b.what}: ${b.bin} is missing`, ...(b === missing.at(-1) ? { fix } : {}) },
  );
}

/**
 * One line per configured hook: what could be checked without running it (a hook changes the target's state, so
 * doctor runs none; that is said too).
 */
function hookLines(config: Config): Line[] {
  return Object.entries(config.hooks).flatMap(([name, h]): Line[] => {
    const checked = checkHookScript(h.command, h.cwd ?? process.cwd(), process.env);
    if (checked === undefined)
      return [
        { ok: true, what: `hooks.${name}: resolves; not run (a hook changes the target's state) and not a shell script the kit can read` },
      ];
    if (checked.problems.length === 0)
      return [{ ok: true, what: `hooks.${name}: ${checked.checked}: all good; not run (a hook changes the target's state)` }];
    return checked.problems.map((p) => ({
      ok: false,
      what: `hooks.${name}: ${p}`,
      fix: /needs [A-Z_]/.test(p)
        ? 'export the variable named before wfmck run (the README lists what the example hooks need)'
        : 'correct the script',
    }));
  });
}
