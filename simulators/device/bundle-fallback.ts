// P4: a deployment's YAML from its state manifest's bundle, when the YAML's own URL answers 404 ("if it cannot"). The
// bundle is used only if its bytes hash to the manifest's digest and it holds exactly the manifest's deployment YAMLs.
import { bundleContentFindings, bundleEntryBytes, verifyDigest } from '../../spec/rules/desired-state.ts';
import { readTarGz } from '../../spec/rules/tar-read.ts';
import type { DeviceApiClient } from '../device-api.ts';
import type { HttpResponse } from '../transport/types.ts';
import type { DesiredStateDecisions } from './decisions/index.ts';
import type { Action } from './machine.ts';

/** A bundle holds a few YAML files: far below the archive defaults. */
const BUNDLE_LIMITS = { maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 };

export type FromBundle = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

export async function yamlFromBundle(
  api: DeviceApiClient,
  action: Extract<Action, { type: 'fetch-deployment' }>,
  decisions: Pick<DesiredStateDecisions, 'verifiesBundleDigest' | 'checksBundleContents'>,
  answered: (res: HttpResponse) => boolean,
): Promise<FromBundle> {
  const bundle = action.bundle!;
  const res = await api.getBundle(bundle.url);
  if (!answered(res)) return { ok: false, message: `P4: the bundle answered ${res.status}` };
  if (decisions.verifiesBundleDigest && !verifyDigest(res.body, bundle.digest)) {
    return { ok: false, message: `P4: the bundle's bytes do not hash to ${bundle.digest}; not opened` };
  }
  let entries;
  try {
    entries = await readTarGz(res.body, BUNDLE_LIMITS);
  } catch (e) {
    return { ok: false, message: `P4: the bundle is no readable gzip tar (${(e as Error).message})` };
  }
  const findings = decisions.checksBundleContents ? bundleContentFindings(entries, action.deployments ?? []) : [];
  if (findings.length > 0) return { ok: false, message: `${findings[0]!.message}; the bundle is refused` };
  const bytes = bundleEntryBytes(entries, action.digest);
  return bytes ? { ok: true, bytes } : { ok: false, message: `P4: no file of the bundle hashes to ${action.digest}` };
}
