// The options several commands share, each defined once: its flag, placeholder, check and doc. A command composes the
// sets it takes (targets, CA file, edition, vendor, listen, output, seed, ...) and may say in its own doc what the
// option does there; `wfmck run` adds each one's env name and YAML key (run/options/config.ts FIELDS).
import { resolveFaultIds } from '../../faults/catalog.ts';
import { EDITIONS } from '../../spec/requirements.ts';
import { PERSONAS } from '../contract/personas.ts';
import { file, listenAddress, oneOf, path, pattern, portNumber, seed, text, url, vendorToken, type Parse } from './args.ts';
import type { Option } from './options.ts';
import { checkedPins, parsePin, type Pin } from '../../protocol/pinned-lookup.ts';
import { UsageError } from './usage.ts';

export const STRICTNESS_LEVELS = ['strict', 'default', 'lenient'] as const;

/** Fault ids of faults/catalog.yaml (the reference services' or the kit's own client's): repeat, or comma-separate. */
export const faultIds: Parse = (raw) => {
  const ids = (Array.isArray(raw) ? raw.map(String) : [text(raw)])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  resolveFaultIds(ids);
  return ids;
};

// Targets: any host the user names; whatever they make the kit contact stays within them and loopback (spec/network-policy.ts).
export const WFM: Option = { flag: 'wfm', value: 'URL', doc: 'WFM base URL', parse: url };
export const IDENTITY: Option = {
  flag: 'identity',
  value: 'URL',
  doc: 'origin of the identity role (discovery at /.well-known/<vendor>)',
  parse: url,
};
export const REGISTRY: Option = { flag: 'registry', value: 'URL', doc: 'OCI registry base URL', parse: url };
export const TARGETS: readonly Option[] = [WFM, IDENTITY, REGISTRY];

/** `--resolve HOST:PORT:ADDR` (repeat; env and YAML: a list, or comma-separated): curl's form. */
export const resolvePins: Parse = (raw) =>
  checkedPins(
    (Array.isArray(raw) ? raw.map(String) : [text(raw)])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean)
      .map(parsePin),
  ) satisfies Pin[];

export const RESOLVE: Option = {
  flag: 'resolve',
  value: 'HOST:PORT:IP',
  multiple: true,
  doc: "connect to HOST:PORT at address IP instead of HOST's DNS answer (curl's --resolve HOST:PORT:ADDR; repeat); TLS still sends and checks the name HOST",
  parse: resolvePins,
};

/** The pins of a command's parsed `--resolve` flags (each repeat parsed alone), checked as one set. */
export function pinsOf(values: Record<string, unknown>): Pin[] {
  try {
    return checkedPins(((values.resolve as Pin[][] | undefined) ?? []).flat());
  } catch (e) {
    throw new UsageError(`--resolve: ${(e as Error).message}`);
  }
}

/** One spelling wherever a CA file applies; `--ca` (fleet, lint, publish) and `--cacert` (sign) were the old ones. */
export const CA_FILE: Option = {
  flag: 'ca-file',
  value: 'FILE',
  aliases: ['ca', 'cacert'],
  doc: "PEM file of the CA of the target's TLS certificate",
  parse: file,
};

export const DEVICE_CA_CERT: Option = {
  flag: 'device-ca-cert',
  value: 'FILE',
  doc: 'a CA certificate the WFM trusts for device certificates (miaf: an SVID CA in its trust bundle)',
  parse: file,
};
export const DEVICE_CA_KEY: Option = { flag: 'device-ca-key', value: 'FILE', doc: 'the private key of that CA', parse: file };
export const DEVICE_CA: readonly Option[] = [DEVICE_CA_CERT, DEVICE_CA_KEY];

export const TRUST_DOMAIN: Option = {
  flag: 'trust-domain',
  value: 'TD',
  doc: 'miaf: the SPIFFE trust domain of the WFM and its clients',
  parse: pattern(/^[a-z0-9._-]+$/, 'a SPIFFE trust domain name'),
};
export const WFM_ID: Option = {
  flag: 'wfm-id',
  value: 'ID',
  doc: "miaf: the <wfm-id> of the WFM's SPIFFE ID spiffe://<trust-domain>/<vendor>/wfm/<wfm-id>",
  parse: pattern(/^[A-Za-z0-9._-]+$/, 'one SPIFFE path segment'),
};
export const SPIFFE: readonly Option[] = [TRUST_DOMAIN, WFM_ID];

// The profile of the standard.
export const EDITION: Option = {
  flag: 'edition',
  value: 'E',
  doc: 'P10 edition of the standard: seed (default, interfaces.md) or miaf (1.0.0-rc.3: mutual TLS with X.509-SVIDs, problem details)',
  parse: oneOf(...EDITIONS),
};
export const VENDOR: Option = {
  flag: 'vendor',
  value: 'TOKEN',
  doc: 'P1 vendor token of media types, paths and annotation keys',
  default: 'platform',
  parse: vendorToken,
};
export const STRICTNESS: Option = {
  flag: 'strictness',
  value: 'S',
  doc: 'P9 strict | default | lenient',
  default: 'default',
  parse: oneOf(...STRICTNESS_LEVELS),
};
export const PERSONA: Option = {
  flag: 'persona',
  value: 'P',
  doc: 'what the component under test plays: wfm (default; with its identity role and registry), identity, registry, device',
  parse: oneOf(...PERSONAS),
};

// The component under test, as reports name it.
export const COMPONENT: readonly Option[] = [
  { flag: 'component-vendor', value: 'V', doc: 'vendor of the component under test, as the report names it', parse: text },
  { flag: 'component-name', value: 'N', doc: 'name of the component under test', parse: text },
  { flag: 'component-version', value: 'X', doc: 'version of the component under test', parse: text },
];

export const ATTEND: Option = {
  flag: 'attend',
  doc: 'persona device without a startClient hook: you start the client under test by hand for each check, from the folder of credentials the kit writes under <out>/attend/',
};

// Where the kit's own services listen: loopback only.
export const LISTEN: Option = {
  flag: 'listen',
  value: 'ADDR',
  aliases: ['host'],
  doc: 'loopback address the embedded services listen on (::1 allowed)',
  default: '127.0.0.1',
  parse: listenAddress,
};
export const WFM_PORT: Option = {
  flag: 'wfm-port',
  value: 'N',
  doc: 'port of the embedded WFM (0: any free port)',
  default: 0,
  parse: portNumber,
};
export const LISTEN_ON: readonly Option[] = [LISTEN, WFM_PORT];

export const FAULT: Option = {
  flag: 'fault',
  value: 'ID',
  multiple: true,
  doc: 'switch on a fault of faults/catalog.yaml in the embedded services (repeat, or comma-separate)',
  parse: faultIds,
};

export const SEED: Option = { flag: 'seed', value: 'N', doc: 'seed of the random choices', defaultDoc: 'random, printed', parse: seed };
export const OUT: Option = { flag: 'out', value: 'DIR', doc: 'output folder', parse: path };

// Registry credentials (publish, lint).
export const REGISTRY_AUTH: readonly Option[] = [
  {
    flag: 'username',
    value: 'U',
    doc: "basic credentials, with --password; also used at the registry's token endpoint when it answers 401 with a Bearer challenge",
  },
  { flag: 'password', value: 'P', env: 'WFMCK_REGISTRY_PASSWORD', doc: 'the password of --username' },
  { flag: 'token', value: 'T', doc: 'a bearer token (instead of --username)' },
];
