// Which hooks of P5/P10 `wfmck init` asks for, and how it names what each does: those the run of the persona and
// edition calls on the targets named (run/contract/context.ts HOOK_NAMES; the suites and fixtures that require each).
import type { HookName } from '../run/contract/context.ts';

/** The answer to the startClient question that means attended mode (`--attend`). */
export const ATTEND_ANSWER = 'attend';

/** What each hook does, in the words of its question. */
export const HOOK_DOCS: Record<HookName, string> = {
  assignDeployment:
    'assigns a deployment to a device ({clientId, deviceId, applicationId, components} -> {deploymentId}; the status, desired state and registry retrieval checks)',
  removeDeployment: 'removes a deployment ({clientId, deviceId, deploymentId}; the removing and removed status checks)',
  retireClient: 'retires a client relationship ({clientId}; the 403 checks)',
  rotateTrustAnchor: 'rotates the trust anchor ({phase: begin, then finish}; the bundle rotation checks)',
  withdrawIdentityDocument:
    'withdraws the discovery document or trust bundle and restores it ({resource, withdrawn} -> {url}; the 404 checks of §4.5 and §4.6)',
  trustClientCertificate:
    'makes the WFM trust a device certificate the kit minted ({certificatePem}; every check with a device, as no device CA was given)',
  issueClientSvid:
    'issues a client SVID from a CSR ({spiffeId, csrPem} -> {certificateChainPem}; every check with a client, as no SVID CA was given)',
  admitClient: "admits a client's SPIFFE ID in the WFM's policy before its first request ({spiffeId}; the 403 not-authorized checks)",
  startClient: "starts your client with its certificate, key and the kit's URLs ({wfm, caPem, certPem, keyPem, kind, ...} -> {handle})",
  stopClient: 'stops the client startClient started ({handle}; the restart and stop checks)',
  removeChild: 'tells your see-thru gateway that a device behind it left ({handle, deviceId}; §2.2)',
  disconnectChild: "cuts your gateway's link to a device behind it ({handle, deviceId}; status code 102, §2.4)",
  changeCapabilities: 'changes what your client reports, e.g. memory is added ({handle}; §2.1)',
};

export interface HookPlan {
  persona: string;
  edition: string;
  /** A WFM target is named (the embedded default answers its own hooks). */
  wfm: boolean;
  identity: boolean;
  /** A device (or SVID) CA was given: the WFM trusts the kit's clients without a hook. */
  deviceCa: boolean;
  /** Persona device: the client under test is started by a hook (the other client hooks act on it). */
  startClient: boolean;
}

/** The hooks to ask for, in the order asked (startClient is asked apart: it may be answered "attend"). */
export function hooksToAsk(p: HookPlan): HookName[] {
  if (p.persona === 'device') return p.startClient ? ['stopClient', 'removeChild', 'disconnectChild', 'changeCapabilities'] : [];
  const hooks: HookName[] = [];
  if (p.wfm && !p.deviceCa) hooks.push(p.edition === 'miaf' ? 'issueClientSvid' : 'trustClientCertificate');
  if (p.wfm && p.edition === 'miaf') hooks.push('admitClient');
  if (p.wfm) hooks.push('assignDeployment', 'removeDeployment', 'retireClient');
  if (p.wfm || p.identity) hooks.push('rotateTrustAnchor');
  if (p.identity) hooks.push('withdrawIdentityDocument');
  return hooks;
}
