// The targets a run names, installed as the named hosts of the network policy (spec/network-policy.ts) in each process
// that sends traffic: the `wfmck run` process (preflight, outage watch), Playwright's runner and every worker.
import { nameTargets, remoteNotice } from '../../spec/network-policy.ts';
import type { RunContext } from './context.ts';

/** Every URL the user named as a target (flag, env, YAML): the config's and the run context's targets alike. */
export function targetUrls(targets: RunContext['targets']): string[] {
  const { wfm, identity, discovery, trustBundleUri, registry, extraDiscovery = [] } = targets;
  return [wfm, identity, discovery, trustBundleUri, registry, ...extraDiscovery].filter((u): u is string => u !== undefined);
}

/** Names the targets' hosts in this process; returns the notice to print once when any is not on loopback. */
export function installTargets(targets: RunContext['targets']): string | undefined {
  return remoteNotice(nameTargets(targetUrls(targets)));
}
