// What bench.json derives from the measured figures: the fleet's rates over autocannon's, and each kit figure over
// the machine's floor for the same job (1.0 = at the floor).
import type { BenchReport, Measurements } from './report.ts';
import { round } from './targets.ts';
import type { WorkersScalingMeasurement } from './workers-scaling.ts';
import type { MtlsMeasurement } from './mtls.ts';

export type FloorRatios = NonNullable<BenchReport['figures']['floorRatios']>;

export interface DerivedFigures {
  ratios?: { signingOff: number; signingOn: number };
  /** The reference WFM's CPU per onboarded device, in ms. */
  perDevice?: number;
  floorRatios?: { kitSignOverNativeSign: number; wfmOnboardingOverNativeChecks?: number };
  clientRatios?: FloorRatios;
  /** Every floor ratio at hand, or nothing when none is. */
  allFloorRatios?: FloorRatios;
}

export function derivedFigures(m: Partial<Measurements>, machineCpus: number): DerivedFigures {
  const rr = m.requestRate;
  const base = rr?.autocannon.requestsPerSecond ?? 0;
  const ratios = rr && {
    signingOff: base > 0 ? round(rr.fleetUnsigned.requestsPerSecond / base, 2) : 0,
    signingOn: base > 0 ? round(rr.fleetSigned.requestsPerSecond / base, 2) : 0,
  };
  const ob = m.onboarding;
  const perDevice = ob && (ob.requests > 0 ? round((ob.wfmCpuMsPer1000 * ob.requests) / 1000 / Math.max(1, ob.reporting), 2) : 0);
  const f = m.floors;
  const floorRatios = f && {
    kitSignOverNativeSign: f.nativeSignUs > 0 ? round(f.kitSignUs / f.nativeSignUs, 2) : 0,
    ...(perDevice !== undefined && {
      wfmOnboardingOverNativeChecks:
        f.nativeVerifyUs + f.nativeX509Us > 0 ? round((perDevice * 1000) / (f.nativeVerifyUs + f.nativeX509Us), 2) : 0,
    }),
  };
  const bareUs = rr?.bareServer.wfmCpuMsPer1000 ?? 0;
  const onboardingExchangeFloorUs = f && bareUs > 0 ? round(3 * bareUs + 3 * f.nativeVerifyUs + f.nativeKeyImportUs, 1) : undefined;
  const exchangeFloorRatios = rr &&
    bareUs > 0 && {
      wfmPutOverBareServer: round(rr.autocannon.wfmCpuMsPer1000 / bareUs, 2),
      ...(onboardingExchangeFloorUs !== undefined && {
        onboardingExchangeFloorUs,
        ...(perDevice !== undefined && { wfmOnboardingOverExchangeFloor: round((perDevice * 1000) / onboardingExchangeFloorUs, 2) }),
      }),
    };
  const cpus = machineCpus > 0 ? machineCpus : 1;
  // Signing adds one native sign (client) and one native verify (WFM) per request, on the same cores as the rest.
  const signedRateBound =
    f && rr && rr.fleetUnsigned.requestsPerSecond > 0
      ? 1 / (1 / rr.fleetUnsigned.requestsPerSecond + (f.nativeSignUs + f.nativeVerifyUs) / 1e6 / cpus)
      : undefined;
  const clientRatios = rr && {
    ...(rr.autocannon.clientCpuMsPer1000 > 0 && {
      clientCpuUnsignedOverAutocannon: round(rr.fleetUnsigned.clientCpuMsPer1000 / rr.autocannon.clientCpuMsPer1000, 2),
    }),
    // The same ratio split at undici alone: undici's part (over autocannon) and the kit's (the fleet over undici).
    ...(rr.undiciAlone.clientCpuMsPer1000 > 0 && {
      clientCpuUnsignedOverUndici: round(rr.fleetUnsigned.clientCpuMsPer1000 / rr.undiciAlone.clientCpuMsPer1000, 2),
      ...(rr.autocannon.clientCpuMsPer1000 > 0 && {
        clientCpuUndiciOverAutocannon: round(rr.undiciAlone.clientCpuMsPer1000 / rr.autocannon.clientCpuMsPer1000, 2),
      }),
    }),
    // ms per 1,000 requests = µs per request.
    // Judged against the unsigned fleet at the signed fleet's own rate: the same work but the signature, at the same
    // answers per event-loop wake-up. The ratio against the full-rate unsigned cost is kept beside it.
    ...(f &&
      rr.fleetUnsignedAtSignedRate.clientCpuMsPer1000 > 0 && {
        clientCpuSignedOverUnsignedPlusSign: round(
          rr.fleetSigned.clientCpuMsPer1000 / (rr.fleetUnsignedAtSignedRate.clientCpuMsPer1000 + f.nativeSignUs),
          2,
        ),
      }),
    ...(f &&
      rr.fleetUnsigned.clientCpuMsPer1000 > 0 && {
        clientCpuSignedOverFullRateUnsignedPlusSign: round(
          rr.fleetSigned.clientCpuMsPer1000 / (rr.fleetUnsigned.clientCpuMsPer1000 + f.nativeSignUs),
          2,
        ),
      }),
    ...(signedRateBound !== undefined && {
      signedRateBound: Math.round(signedRateBound),
      signedRateOverBound: round(rr.fleetSigned.requestsPerSecond / signedRateBound, 2),
    }),
  };
  const acUs = rr?.autocannon.clientCpuMsPer1000 ?? 0;
  const onboardingClientFloorUs = f && acUs > 0 ? round(3 * acUs + 2 * f.nativeSignUs, 1) : undefined;
  const onboardingClientRatios = onboardingClientFloorUs !== undefined &&
    ob !== undefined &&
    ob.clientCpuUsPerOnboarding > 0 && {
      onboardingClientFloorUs,
      clientOnboardingOverFloor: round(ob.clientCpuUsPerOnboarding / onboardingClientFloorUs, 2),
    };
  const mtlsFloorRatios = m.mtls && mtlsRatios(m.mtls);
  const fw = m.fleetWorkers;
  const workersRatios = fw && fw.oneWorker.requestsPerSecond > 0 && fw.oneWorker.clientCpuUsPerRequest > 0 && workersScaling(fw, cpus);
  const allFloorRatios = (floorRatios || (clientRatios && Object.keys(clientRatios).length > 0) || mtlsFloorRatios || workersRatios) && {
    ...floorRatios,
    ...clientRatios,
    ...exchangeFloorRatios,
    ...onboardingClientRatios,
    ...mtlsFloorRatios,
    ...workersRatios,
  };
  return {
    ...(ratios && { ratios }),
    ...(perDevice !== undefined && { perDevice }),
    ...(floorRatios && { floorRatios }),
    ...(clientRatios && { clientRatios }),
    ...(allFloorRatios && { allFloorRatios }),
  };
}

/** The mTLS devices over their floors of the same run: the handshake-only one, and bare TLS doing the same exchange. */
function mtlsRatios(t: MtlsMeasurement) {
  // The like-for-like handshake rate: the first devices, before any poll is due, as the floor has no other traffic.
  return {
    ...(t.floor.rssBytesPerConnection > 0 && { mtlsRssPerDeviceOverBare: round(t.rssBytesPerDevice / t.floor.rssBytesPerConnection, 2) }),
    ...(t.floor.handshakesPerSecond > 0 && { mtlsHandshakesOverBare: round(t.firstHandshakesPerSecond / t.floor.handshakesPerSecond, 2) }),
    // The kit's own part: its devices over bare TLS doing the same exchange with the same SVIDs against the same WFMs.
    ...(t.sameExchange.rssBytesPerDevice > 0 && {
      mtlsRssPerDeviceOverSameExchange: round(t.rssBytesPerDevice / t.sameExchange.rssBytesPerDevice, 2),
      ...(t.floor.rssBytesPerConnection > 0 && {
        mtlsSameExchangeRssOverBare: round(t.sameExchange.rssBytesPerDevice / t.floor.rssBytesPerConnection, 2),
      }),
    }),
    ...(t.sameExchange.firstHandshakesPerSecond > 0 && {
      mtlsHandshakesOverSameExchange: round(t.firstHandshakesPerSecond / t.sameExchange.firstHandshakesPerSecond, 2),
    }),
    ...(t.sameExchange.clientCpuMsPerHandshake > 0 && {
      mtlsClientCpuOverSameExchange: round(t.clientCpuMsPerHandshake / t.sameExchange.clientCpuMsPerHandshake, 2),
    }),
  };
}

/**
 * The fleet over 2 worker processes beside 1, and what the CPU allows: each process uses one core at most and all
 * share the machine's, so N workers with c µs of client CPU per PUT against a server spending s µs reach at most
 * min(N / c, 1 / s, cpus / (c + s)) PUTs per µs. On 16 cores with the target elsewhere, 16 times one worker's 1 / c.
 */
export function workersScaling(fw: WorkersScalingMeasurement, cpus: number) {
  const c = fw.oneWorker.clientCpuUsPerRequest;
  const s = fw.oneWorker.serverCpuUsPerRequest;
  const bound = (n: number) => Math.min(n / c, s > 0 ? 1 / s : Infinity, cpus / (c + s));
  const perCore = 1e6 / c;
  return {
    fleetWorkersScaling: round(fw.twoWorkers.requestsPerSecond / fw.oneWorker.requestsPerSecond, 2),
    fleetWorkersScalingBound: round(bound(2) / bound(1), 2),
    fleetWorkerRatePerCore: Math.round(perCore),
    fleetWorkersRateOn16Cores: Math.round(16 * perCore),
  };
}
