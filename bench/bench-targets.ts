// The targets a bench run is judged by: each figure against the number the issue set for it.
import type { FleetMeasurement } from './fleets.ts';
import type { DerivedFigures } from './derived-figures.ts';
import type { Measurements } from './report.ts';
import { judge, type Target } from './targets.ts';

export function benchTargets(m: Partial<Measurements>, d: DerivedFigures): Target[] {
  return [...rateTargets(m, d), ...workTargets(m), ...floorTargets(d), ...scaleTargets(m, d)];
}

export function fleetName(f: FleetMeasurement): string {
  const s = f.settings;
  return `fleet of ${f.devices.toLocaleString('en')} devices (${s.devices.toLocaleString('en')} plain, ${s.seeThruGateways} see-thru and ${s.opaqueGateways} opaque gateways of ${s.children})`;
}

/** PUT capabilities: the fleet against autocannon, signing off and on. */
function rateTargets(m: Partial<Measurements>, { ratios }: DerivedFigures): Target[] {
  const rr = m.requestRate;
  const targets: Target[] = [];
  if (rr && ratios) {
    targets.push(
      judge(
        'request-rate-ratio',
        `PUT capabilities, signing off: fleet / autocannon (${rr.settings.connections} connections)`,
        ratios.signingOff,
        '',
        '>=',
        1.0,
      ),
      judge(
        'request-rate-ratio-signed',
        'PUT capabilities, fleet signing (RFC 9421) / autocannon unsigned',
        ratios.signingOn,
        '',
        '>=',
        0.9,
      ),
    );
  }
  return targets;
}

/**
 * Heap per device, the suite's time. Onboarding has no target of its own here: its rate measured the reference WFM, not
 * the kit (issue 35); bench.json reports the kit's client CPU per onboarding over its floor (clientOnboardingOverFloor).
 */
function workTargets(m: Partial<Measurements>): Target[] {
  const targets: Target[] = [];
  if (m.memory)
    targets.push(
      judge(
        'heap-per-device',
        `heap per simulated device, ${m.memory.devices.toLocaleString('en')} alive in one process`,
        m.memory.heapBytesPerDevice,
        'B',
        '<=',
        4096,
      ),
    );
  if (m.suite) {
    const suiteName = m.suite.grep
      ? `wfmck run --grep ${m.suite.grep} (quick: not the default suite)`
      : 'default wfmck run on the embedded default';
    targets.push(judge('suite-time', suiteName, m.suite.seconds, 's', '<', 120));
  }
  return targets;
}

/** The kit's costs over the machine's floors. */
function floorTargets({ floorRatios, clientRatios }: DerivedFigures): Target[] {
  const targets: Target[] = [];
  if (floorRatios) {
    targets.push(
      judge(
        'kit-sign-floor',
        "the kit's RFC 9421 signing of one request / a native P-256 sign",
        floorRatios.kitSignOverNativeSign,
        'x',
        '<=',
        1.5,
      ),
    );
    if (floorRatios.wfmOnboardingOverNativeChecks !== undefined)
      targets.push(
        judge(
          'onboarding-cpu-floor',
          'reference WFM CPU per onboarding / (native verify + certificate parse and issuer check)',
          floorRatios.wfmOnboardingOverNativeChecks,
          'x',
          '<=',
          1.5,
        ),
      );
  }
  if (clientRatios?.clientCpuUnsignedOverAutocannon !== undefined)
    targets.push(
      judge(
        'client-cpu-unsigned',
        "the fleet's client CPU per unsigned PUT / autocannon's",
        clientRatios.clientCpuUnsignedOverAutocannon,
        'x',
        '<=',
        1.3,
      ),
    );
  if (clientRatios?.clientCpuSignedOverUnsignedPlusSign !== undefined)
    targets.push(
      judge(
        'client-cpu-signed',
        "the signing fleet's client CPU per PUT / (its unsigned CPU per PUT at the same rate + a native sign)",
        clientRatios.clientCpuSignedOverUnsignedPlusSign,
        'x',
        '<=',
        1.3,
      ),
    );
  if (clientRatios?.signedRateOverBound !== undefined)
    targets.push(
      judge(
        'signed-rate-floor',
        'signed fleet PUT rate / the rate the unsigned rate and native sign + verify allow',
        clientRatios.signedRateOverBound,
        'x',
        '>=',
        0.9,
      ),
    );
  return targets;
}

/** mTLS devices held by the kit's worker processes (each against the bare floor of the same run), and the fleets as a user starts them. */
function scaleTargets(m: Partial<Measurements>, { allFloorRatios }: DerivedFigures): Target[] {
  const targets: Target[] = [];
  if (m.mtls) {
    const t = m.mtls;
    targets.push(
      judge(
        'mtls-held',
        `mTLS devices held by ${t.settings.workers} worker processes (miaf, each its own SVID and connection)`,
        t.heldConcurrently,
        'devices',
        '>=',
        t.settings.devices,
      ),
    );
    if (allFloorRatios?.mtlsRssPerDeviceOverBare !== undefined)
      targets.push(
        judge(
          'mtls-rss-per-device',
          `RSS per held mTLS device / a bare mutual-TLS connection's with its own context, ${t.heldConcurrently.toLocaleString('en')} held`,
          allFloorRatios.mtlsRssPerDeviceOverBare,
          'x',
          '<=',
          1.2,
        ),
      );
    if (allFloorRatios?.mtlsHandshakesOverBare !== undefined)
      targets.push(
        judge(
          'mtls-handshakes',
          `mTLS handshakes per second (SVID, first GET) of the first ${t.firstDevices.toLocaleString('en')} devices / bare Node TLS with a context per device`,
          allFloorRatios.mtlsHandshakesOverBare,
          'x',
          '>=',
          0.95,
        ),
      );
    // The kit's own part, beside bare TLS doing the same exchange: what the handshake-only floor leaves out (the SVID
    // chain, the WFM's answer, the HTTP) is no layer of the kit's to trim.
    if (allFloorRatios?.mtlsRssPerDeviceOverSameExchange !== undefined)
      targets.push(
        judge(
          'mtls-rss-per-device-same-exchange',
          `RSS per held mTLS device / bare TLS doing the same exchange (same SVIDs, WFMs, GETs and polls)`,
          allFloorRatios.mtlsRssPerDeviceOverSameExchange,
          'x',
          '<=',
          1.2,
        ),
      );
    if (allFloorRatios?.mtlsHandshakesOverSameExchange !== undefined)
      targets.push(
        judge(
          'mtls-handshakes-same-exchange',
          `mTLS handshakes per second of the first ${t.firstDevices.toLocaleString('en')} devices / bare TLS doing the same exchange`,
          allFloorRatios.mtlsHandshakesOverSameExchange,
          'x',
          '>=',
          0.95,
        ),
      );
  }
  if (m.acceptanceFleet) {
    const a = m.acceptanceFleet;
    targets.push(
      judge('acceptance-fleet-start', `${fleetName(a)}: start to all reporting (start phase)`, a.startPhaseSeconds, 's', '<=', 10),
    );
  }
  if (m.liveFleet) {
    const l = m.liveFleet;
    const name = fleetName(l);
    targets.push(
      judge('live-fleet-reporting', `${name}: clients reporting at the end`, l.reporting, 'clients', '>=', l.clients),
      judge('live-fleet-unexpected', `${name}: unexpected answers and transport errors`, l.unexpected + l.transportErrors, '', '<=', 0),
      judge(
        'live-fleet-held',
        `${name}: seconds held after the last start, polling every ${l.settings.tickInterval} s`,
        l.heldSeconds,
        's',
        '>=',
        Math.min(300, l.settings.duration / 2),
      ),
      judge('live-fleet-rss', `${name}: the fleet process's peak RSS`, l.fleetPeakRssMiB, 'MiB', '<=', 1024),
    );
  }
  return targets;
}
