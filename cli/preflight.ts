// What `wfmck run` checks before any test runs, so a broken configuration costs seconds, not a run of kit errors:
// every hook command resolves to an executable, every CA, certificate and key file parses, and every named target
// accepts a connection (TCP, then TLS where the kit can complete it). Reachability is connection-level: what an
// endpoint answers, or that it never answers, is a check's finding with evidence, never a reason to run nothing.
import { spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { isIP, connect as tcpConnect } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { lookup } from '../protocol/pinned-lookup.ts';
import { namesTargets, type Config } from '../run/options/config.ts';
import { UsageError } from '../run/options/usage.ts';
import { schemeProblem } from './scheme-probe.ts';

const CONNECT_TIMEOUT_MS = 10_000;

/** The first word a shell would run: leading VAR=value assignments skipped, quotes taken off. */
export function commandWord(command: string): string | undefined {
  const words = command.match(/(?:[^\s'"]+|'[^']*'|"(?:\\.|[^"\\])*")+/g) ?? [];
  const word = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return word?.replace(/^'(.*)'$/s, '$1').replace(/^"(.*)"$/s, '$1');
}

/** Why `command` cannot run from `cwd`, or undefined when its first word resolves to something executable. */
export function hookProblem(command: string, cwd: string): string | undefined {
  const word = commandWord(command);
  if (word === undefined) return 'is empty';
  if (word.includes('/')) {
    const path = isAbsolute(word) ? word : resolve(cwd, word);
    try {
      accessSync(path, constants.X_OK);
      return undefined;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT'
        ? `runs ${path}, which does not exist`
        : `runs ${path}, which is not executable (chmod +x)`;
    }
  }
  // A bare name: the shell's own lookup (PATH, builtins) says whether it runs.
  const found = spawnSync('/bin/sh', ['-c', 'command -v -- "$1" >/dev/null', 'sh', word], { cwd, stdio: 'ignore' });
  return found.status === 0 ? undefined : `runs "${word}", which is not on PATH (${process.env.PATH ?? ''})`;
}

function hookProblems(config: Config): string[] {
  return Object.entries(config.hooks).flatMap(([name, h]) => {
    const why = hookProblem(h.command, h.cwd ?? process.cwd());
    return why === undefined ? [] : [`hooks.${name}: "${h.command}" ${why}`];
  });
}

function certificatesIn(pem: string): number {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).filter((block) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  }).length;
}

function readable(file: string, what: string, problems: string[]): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    problems.push(`${what}: ${file}: ${(e as Error).message}`);
    return undefined;
  }
}

/** CA files hold certificates; a certificate and its key parse, and belong together. */
function materialProblems(config: Config): string[] {
  const problems: string[] = [];
  for (const file of config.tls.caFiles) {
    const pem = readable(file, 'tls.caFiles', problems);
    if (pem !== undefined && certificatesIn(pem) === 0) problems.push(`tls.caFiles: ${file} holds no PEM certificate`);
  }
  const pair = (certFile: string | undefined, keyFile: string | undefined, what: string) => {
    const certPem = certFile && readable(certFile, `${what}.certFile`, problems);
    const keyPem = keyFile && readable(keyFile, `${what}.keyFile`, problems);
    let cert: X509Certificate | undefined;
    if (certPem) {
      try {
        cert = new X509Certificate(certPem);
      } catch (e) {
        problems.push(`${what}.certFile: ${certFile} is not a PEM certificate (${(e as Error).message})`);
      }
    }
    if (keyPem) {
      try {
        const key = createPrivateKey(keyPem);
        if (cert && !cert.checkPrivateKey(key)) problems.push(`${what}.keyFile: ${keyFile} is not the key of ${certFile}`);
      } catch (e) {
        problems.push(`${what}.keyFile: ${keyFile} is not a PEM private key (${(e as Error).message})`);
      }
    }
  };
  if (config.deviceCa) pair(config.deviceCa.certFile, config.deviceCa.keyFile, 'deviceCa');
  if (config.signing?.keyFile) pair(config.signing.certFile, config.signing.keyFile, 'signing');
  return problems;
}

/** Every problem of the configuration's hooks and files, one line each (`<setting>: <what is wrong>`). */
export function configurationProblems(config: Config): string[] {
  return [...hookProblems(config), ...materialProblems(config)];
}

/** Every configuration problem at once (exit 2, one line naming each), before anything starts. */
export function checkConfiguration(config: Config): void {
  const problems = configurationProblems(config);
  // One line each, `<setting>: <what is wrong>`.
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
}

/** The origins a run names, each once, with what they are. */
export function targetOrigins(config: Config): [string, URL][] {
  const t = config.targets;
  const named: [string, string | undefined][] = [
    ['WFM', t.wfm],
    ['identity role', t.identity ?? t.discovery],
    ['trust bundle', t.trustBundleUri],
    ['registry', t.registry],
  ];
  const seen = new Set<string>();
  return named.flatMap(([what, url]) => {
    if (url === undefined) return [];
    const u = new URL(url);
    if (seen.has(u.origin)) return [];
    seen.add(u.origin);
    return [[what, u] as [string, URL]];
  });
}

/** The kit's own verdict on the server's certificate (an alert is the server's verdict on the kit's: not these). */
const UNTRUSTED = /^(?!.*ALERT).*(CERT|SELF_SIGNED|UNABLE_TO)/;

/**
 * Connects to `url`: a TCP connection, then for https a TLS handshake with the run's CAs. A refused or unanswered
 * connection, or a server certificate the CAs do not cover, is a problem; anything the server decides after that (an
 * alert because no client certificate came, a reset) is a finding of the checks, so it passes here.
 */
export function connectionProblem(
  url: URL,
  ca: string[],
  timeoutMs = CONNECT_TIMEOUT_MS,
  /** Seed: a target named by a DNS name must hold a certificate for that name, as every check's handshake will ask. */
  checkName = false,
): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((done) => {
    let settled = false;
    const finish = (why: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(why);
    };
    const timer = setTimeout(() => finish(`no connection within ${timeoutMs / 1000} s`), timeoutMs);
    const tls = url.protocol === 'https:';
    // P10: a server's identity is its SPIFFE ID, judged by the checks; a loopback IP is never it.
    const options: ConnectionOptions = {
      host,
      port,
      lookup,
      ...(ca.length && { ca }),
      ...((!checkName || isIP(host) !== 0) && { checkServerIdentity: () => undefined }),
      ALPNProtocols: ['http/1.1'],
    };
    const socket = tls ? tlsConnect(options, () => finish(undefined)) : tcpConnect({ host, port, lookup }, () => finish(undefined));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? '';
      if (code === 'ECONNREFUSED') return finish('connection refused');
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
        return finish(`no address for ${host} (${code}); pin one with --resolve ${host}:${port}:ADDR, as curl does`);
      if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
        return finish(
          `TLS: its certificate does not name ${host}; the server needs one for the name it is reached by (wfmck serve --hostname ${host})`,
        );
      if (tls && UNTRUSTED.test(code))
        return finish(`TLS: its certificate is not covered by the run's CAs (${code}); give the target's CA in tls.caFiles (--ca-file)`);
      // The server took the connection and ended the handshake itself (no client certificate, say): it is there.
      finish(tls && socket.connecting === false ? undefined : `${code ? `${code}: ` : ''}${e.message}`);
    });
  });
}

/** Each named target accepts a connection with the scheme it is named with; the first that does not is exit 2 with its reason. */
export async function probeTargets(config: Config): Promise<void> {
  if (!namesTargets(config)) return;
  const ca = config.tls.caFiles.map((f) => readFileSync(f, 'utf8'));
  for (const [what, url] of targetOrigins(config)) {
    const why = await connectionProblem(url, ca, CONNECT_TIMEOUT_MS, config.profile.edition !== 'miaf');
    if (why !== undefined)
      throw Object.assign(new Error(`unreachable target: ${what} ${url.origin}: ${why}`), { code: 'WFMCK_E_UNREACHABLE' });
    const scheme = await schemeProblem(url);
    if (scheme !== undefined) throw Object.assign(new Error(`wrong scheme: ${what} ${url.origin} ${scheme}`), { code: 'WFMCK_E_SCHEME' });
  }
}
