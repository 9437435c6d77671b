// The identity role's X.509 trust anchors (interfaces.md §2.6), their rotation (P5) and their JWK entries.
import { createRootCa, issueCertificate, type Issued } from '../../protocol/pki.ts';
import { jwtSvidJwk, x509SvidJwk } from '../../protocol/bundle-jwk.ts';
import { cleanIdentityDecisions, type IdentityDecisions } from './decisions.ts';
import type { BundleJwk } from '../../spec/types.ts';

export type RotationPhase = 'begin' | 'finish';

interface Anchor {
  issued: Issued;
  jwk: BundleJwk;
}

export interface AnchorSet {
  /** spiffe_sequence: starts at 1 and grows by one on every change of the anchors. */
  sequence(): number;
  /** The current x509-svid CAs, oldest first (the operator's fixed anchors last). */
  authorities(): Issued[];
  /** The newest rotating anchor: the one new SVIDs are issued from. */
  newest(): Issued;
  /** The bundle's `keys`: x509-svid anchors oldest first, then the jwt-svid key if any. */
  keys(): BundleJwk[];
  /**
   * `begin` adds a new anchor beside the current one (the overlap); `finish` drops the oldest.
   * `begin` during an overlap and `finish` outside one change nothing and resolve false, so a
   * repeated hook call is harmless; a change resolves true.
   */
  rotate(phase: RotationPhase): Promise<boolean>;
}

export interface AnchorSetOptions {
  trustDomain: string;
  includeJwtSvidKey: boolean;
  decisions?: Pick<IdentityDecisions, 'anchorSpiffeId' | 'listsIntermediateAsAnchor' | 'finishDropsOldAnchor'>;
  /** CAs an operator added to the bundle (P10: the kit's SVID CA): listed after the rotating anchors, never rotated. */
  fixed?: Issued[];
}

export async function createAnchorSet(opts: AnchorSetOptions): Promise<AnchorSet> {
  const decisions = opts.decisions ?? cleanIdentityDecisions;
  let generation = 0;
  const newAnchor = async (): Promise<Anchor> => {
    // X509-SVID §3.2: a signing certificate SHOULD be an SVID whose ID is its trust domain's, with no path.
    const spiffeId = decisions.anchorSpiffeId(opts.trustDomain);
    const issued = await createRootCa(`wfmck ${opts.trustDomain} x509-svid CA ${++generation}`, 'P-256', 3650, [spiffeId]);
    return { issued, jwk: await x509SvidJwk(issued) };
  };
  const anchors: Anchor[] = [await newAnchor()];
  const fixed: Anchor[] = await Promise.all((opts.fixed ?? []).map(async (issued) => ({ issued, jwk: await x509SvidJwk(issued) })));
  const jwtKey = opts.includeJwtSvidKey ? await jwtSvidJwk() : undefined;
  const intermediate = decisions.listsIntermediateAsAnchor ? await intermediateJwk(anchors[0]!.issued, opts.trustDomain) : undefined;
  let sequence = 1;

  const step = async (phase: RotationPhase): Promise<boolean> => {
    if (phase === 'begin') {
      if (anchors.length > 1) return false;
      anchors.push(await newAnchor());
    } else if (phase === 'finish') {
      if (anchors.length < 2) return false;
      if (decisions.finishDropsOldAnchor) anchors.shift();
    } else {
      throw new Error(`unknown rotation phase: ${JSON.stringify(phase)}`);
    }
    sequence += 1;
    return true;
  };
  // Rotations run one at a time so two concurrent `begin`s cannot both add an anchor.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    sequence: () => sequence,
    authorities: () => [...anchors, ...fixed].map((a) => a.issued),
    newest: () => anchors[anchors.length - 1]!.issued,
    keys: () => [
      ...[...anchors, ...fixed].map((a) => ({ ...a.jwk })),
      ...(intermediate ? [{ ...intermediate }] : []),
      ...(jwtKey ? [{ ...jwtKey }] : []),
    ],
    rotate(phase) {
      const run = queue.then(() => step(phase));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

async function intermediateJwk(root: Issued, trustDomain: string): Promise<BundleJwk> {
  return x509SvidJwk(await issueCertificate(root, { commonName: `wfmck ${trustDomain} intermediate CA`, ca: true }));
}
