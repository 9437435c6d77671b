// `oci://host:port/name:tag` (or `@digest`): the pushed-artifact input of `wfmck lint`; its registry is a named target.
import { DIGEST_PATTERN, OCI_REPOSITORY_PATTERN, OCI_TAG_PATTERN } from '../schemas/common.ts';

export interface OciRef {
  /** `host:port` as written. */
  registry: string;
  hostname: string;
  name: string;
  /** A tag, or a digest when `isDigest`. */
  reference: string;
  isDigest: boolean;
}

const NAME = new RegExp(OCI_REPOSITORY_PATTERN);
const TAG = new RegExp(OCI_TAG_PATTERN);
const DIGEST = new RegExp(DIGEST_PATTERN);

export function isOciRef(input: string): boolean {
  return input.startsWith('oci://');
}

export function parseOciRef(input: string): { ok: true; ref: OciRef } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: `${input} is not oci://host:port/name:tag` };
  }
  const path = url.pathname.replace(/^\//, '');
  const at = path.lastIndexOf('@');
  const colon = path.lastIndexOf(':');
  const [name, reference, isDigest] =
    at !== -1
      ? [path.slice(0, at), path.slice(at + 1), true]
      : colon > path.lastIndexOf('/')
        ? [path.slice(0, colon), path.slice(colon + 1), false]
        : [path, '', false];
  if (url.protocol !== 'oci:' || url.host === '' || url.search !== '' || url.hash !== '')
    return { ok: false, reason: `${input} is not oci://host:port/name:tag` };
  if (!NAME.test(name)) return { ok: false, reason: `${JSON.stringify(name)} is not an OCI repository name` };
  if (reference === '') return { ok: false, reason: `${input} names no tag (oci://host:port/name:tag)` };
  if (!(isDigest ? DIGEST : TAG).test(reference))
    return { ok: false, reason: `${JSON.stringify(reference)} is not an OCI ${isDigest ? 'digest' : 'tag'}` };
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return { ok: true, ref: { registry: url.host, hostname, name, reference, isDigest } };
}
