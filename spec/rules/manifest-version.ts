// §2.4.1 and §9: the `adoptedManifestVersion` a client MUST report for one deployment, as a tiny state model.
import { finding, type Finding } from './finding.ts';

/** P4: manifestVersion is an integer in [1, 2^64-1]; JS numbers are exact only up to 2^53-1, the bound we check. */
export const MAX_MANIFEST_VERSION = Number.MAX_SAFE_INTEGER;

/** The revision a client holds and has begun applying (§2.4.1 rule 1: that is adoption). */
export interface HeldRevision {
  version: number;
  /** `resync` after a loss of local state (rule 6); `apply` otherwise. */
  via: 'apply' | 'resync';
  /** No revision was held before this one (rule 5). */
  firstInstall: boolean;
  /** The outcome so far; it never moves the version (rule 1: adoption is independent of outcome). */
  failed: boolean;
}

export interface AdoptionState {
  held?: HeldRevision;
  /** The newest fetched manifestVersion carrying the deployment that the client has not begun applying (rule 4). */
  fetched?: number;
}

export const INITIAL_ADOPTION: AdoptionState = Object.freeze({});

/** Rule 4: fetching records a pending revision and never moves `held`; a manifest without the deployment clears it. */
export function fetched(state: AdoptionState, manifestVersion: number, containsDeployment: boolean): AdoptionState {
  if (!containsDeployment) return withFetched(state, undefined);
  if (state.held && manifestVersion <= state.held.version) return state;
  if (state.fetched !== undefined && manifestVersion <= state.fetched) return state;
  return withFetched(state, manifestVersion);
}

/** Rule 1: beginning to apply a revision adopts it; a revision older than the one held is stale (rule 7) and ignored. */
export function beganApplying(state: AdoptionState, manifestVersion: number): AdoptionState {
  if (state.held && manifestVersion < state.held.version) return state;
  return adopt(state, manifestVersion, 'apply');
}

/** Rules 1 and 5: a failure is an outcome; the adopted version stays. */
export function applyFailed(state: AdoptionState): AdoptionState {
  return state.held ? { ...state, held: { ...state.held, failed: true } } : state;
}

/** Rule 6: after losing local state the client holds nothing until it resynchronizes. */
export function lostLocalState(_state: AdoptionState): AdoptionState {
  return {};
}

/** Rule 6: the client reports the version it resynchronized against. */
export function resynchronized(state: AdoptionState, manifestVersion: number): AdoptionState {
  return adopt(state, manifestVersion, 'resync');
}

/** Rules 2-6: the version a report must carry; undefined before any adoption, when no report may be sent. */
export function reportedVersion(state: AdoptionState): number | undefined {
  return state.held?.version;
}

/** The findings for one report's `adoptedManifestVersion` against what the model says the client holds. */
export function judgeReportedVersion(reported: unknown, state: AdoptionState): Finding[] {
  const path = '/adoptedManifestVersion';
  const held = state.held;
  if (!held) {
    return [
      finding('report-before-adoption', '§2.4.1 rule 1: a report was sent before the client adopted any revision of the deployment', path),
    ];
  }
  if (reported === undefined || reported === null) {
    return [
      finding(
        'adopted-version-present',
        '§2.4.1 rule 2: adoptedManifestVersion is present in every report; there is no reserved "none" value',
        path,
      ),
    ];
  }
  if (typeof reported !== 'number') {
    return [finding('adopted-version-number', `§2.4: adoptedManifestVersion is a number, got ${typeof reported}`, path)];
  }
  if (reported === held.version) return [];
  return [mismatch(reported, held, state.fetched)];
}

function mismatch(reported: number, held: HeldRevision, pending: number | undefined): Finding {
  const path = '/adoptedManifestVersion';
  const got = `reported ${reported}, held ${held.version}`;
  if (pending !== undefined && reported === pending) {
    return finding(
      'adopted-version-not-advanced-by-fetch',
      `§2.4.1 rule 4: fetching manifest ${pending} does not advance the version before applying begins (${got})`,
      path,
    );
  }
  if (held.via === 'resync') {
    return finding(
      'adopted-version-resync',
      `§2.4.1 rule 6: after losing local state the client reports the version it resynchronized against (${got})`,
      path,
    );
  }
  if (held.firstInstall && held.failed) {
    return finding(
      'adopted-version-first-install',
      `§2.4.1 rule 5: a failed first install still reports the version it adopted (${got})`,
      path,
    );
  }
  return finding(
    'adopted-version-held',
    `§2.4.1 rule 3: adoptedManifestVersion equals the manifestVersion of the revision held (${got})`,
    path,
  );
}

/** P4: one manifestVersion is an integer in [1, 2^64-1] (checked up to 2^53-1, see MAX_MANIFEST_VERSION). */
export function manifestVersionFindings(version: unknown, path = '/manifestVersion'): Finding[] {
  if (typeof version === 'number' && Number.isInteger(version) && version >= 1 && version <= MAX_MANIFEST_VERSION) return [];
  return [finding('manifest-version-range', `P4: manifestVersion is an integer in [1, 2^64-1], got ${JSON.stringify(version)}`, path)];
}

/** §2.4.1 rule 7, §9: the manifestVersions of successive distinct revisions strictly increase and never repeat. */
export function checkVersionSequence(versions: number[]): Finding[] {
  const out: Finding[] = versions.flatMap((v, i) => manifestVersionFindings(v, `/${i}`));
  const seen = new Set<number>();
  for (const [i, v] of versions.entries()) {
    if (seen.has(v)) {
      out.push(finding('manifest-version-repeats', `§2.4.1 rule 7: manifestVersion ${v} repeats; versions never repeat`, `/${i}`));
    } else if (i > 0 && v < versions[i - 1]!) {
      out.push(
        finding(
          'manifest-version-decreases',
          `§2.4.1 rule 7: manifestVersion ${v} follows ${versions[i - 1]}; versions increase monotonically`,
          `/${i}`,
        ),
      );
    }
    seen.add(v);
  }
  return out;
}

function adopt(state: AdoptionState, version: number, via: HeldRevision['via']): AdoptionState {
  const prior = state.held;
  const firstInstall = prior === undefined || (prior.firstInstall && prior.version === version);
  const held: HeldRevision = { version, via, firstInstall, failed: false };
  const pending = state.fetched !== undefined && state.fetched > version ? state.fetched : undefined;
  return pending === undefined ? { held } : { held, fetched: pending };
}

function withFetched(state: AdoptionState, version: number | undefined): AdoptionState {
  const { fetched: _old, ...rest } = state;
  return version === undefined ? rest : { ...rest, fetched: version };
}
