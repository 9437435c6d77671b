// The profile values of `wfmck run` (profiles.md P1-P10), each a setting under `profile.` in YAML: the edition presets
// them (spec/profile.ts), each one given wins.
import { oneOf, pattern, positiveInt } from './args.ts';
import { VENDOR } from './option-sets.ts';
import { SVID_KEY_ALGORITHMS } from '../../spec/rules/svid-key-algorithms.ts';
import { field, type Field } from './setting.ts';

export const PROFILE_FIELDS: readonly Field[] = [
  field(VENDOR, 'profile.vendor', 'WFMCK_PROFILE_VENDOR'),
  {
    key: 'profile.certificatePath',
    env: 'WFMCK_PROFILE_CERTIFICATE_PATH',
    doc: 'P2 Certificate API path',
    parse: pattern(/^\/\S*$/, 'an absolute path'),
  },
  {
    key: 'profile.deviceAuth',
    env: 'WFMCK_PROFILE_DEVICE_AUTH',
    doc: 'P3 request authentication',
    parse: oneOf('signature', 'mtls', 'none'),
  },
  {
    key: 'profile.signatureAlgorithm',
    env: 'WFMCK_PROFILE_SIGNATURE_ALGORITHM',
    doc: 'P3 signature algorithm',
    parse: oneOf('ecdsa-p256-sha256', 'rsa-pss-sha512', 'ed25519'),
  },
  { key: 'profile.paths', env: 'WFMCK_PROFILE_PATHS', doc: 'P3 capabilities paths', parse: oneOf('seed', 'client-scoped') },
  { key: 'profile.desiredState', env: 'WFMCK_PROFILE_DESIRED_STATE', doc: 'P4 desired state delivery', parse: oneOf('v1', 'hook') },
  {
    key: 'profile.quantityFormat',
    env: 'WFMCK_PROFILE_QUANTITY_FORMAT',
    doc: 'P8 memory/storage form the simulators send',
    parse: oneOf('spaced', 'compact'),
  },
  { key: 'profile.digestAlgorithm', env: 'WFMCK_PROFILE_DIGEST_ALGORITHM', doc: 'P4 digest algorithm', parse: oneOf('sha256') },
  {
    key: 'profile.deploymentsPath',
    env: 'WFMCK_PROFILE_DEPLOYMENTS_PATH',
    doc: "P4/P10 desired state under /api/v1/clients/{id} or the caller's /api/v1/deployments",
    parse: oneOf('per-client', 'caller'),
  },
  { key: 'profile.errors', env: 'WFMCK_PROFILE_ERRORS', doc: 'P6/P10 error bodies', parse: oneOf('p6', 'problem-details') },
  {
    key: 'profile.problemTypeBase',
    env: 'WFMCK_PROFILE_PROBLEM_TYPE_BASE',
    doc: 'P10 namespace of reserved problem types',
    parse: oneOf('either', 'management-interface', 'specification'),
  },
  {
    key: 'profile.capabilitiesRoot',
    env: 'WFMCK_PROFILE_CAPABILITIES_ROOT',
    doc: '§2.1/P10 open or closed capabilities root',
    parse: oneOf('open', 'closed'),
  },
  {
    key: 'profile.tlsMinVersion',
    env: 'WFMCK_PROFILE_TLS_MIN_VERSION',
    doc: 'P10 lowest TLS version by default',
    parse: oneOf('TLSv1.2', 'TLSv1.3'),
  },
  {
    key: 'profile.svidKeyAlgorithm',
    env: 'WFMCK_PROFILE_SVID_KEY_ALGORITHM',
    doc: "P10 key of the simulated clients' SVIDs",
    parse: oneOf(...SVID_KEY_ALGORITHMS),
  },
  {
    key: 'profile.hookTimeoutMs',
    env: 'WFMCK_PROFILE_HOOK_TIMEOUT_MS',
    doc: 'P5 default hook timeout',
    defaultDoc: '30000',
    parse: positiveInt,
  },
];
