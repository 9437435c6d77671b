// What a fleet run observed, folded from DeviceEvents in O(1) memory per event: outcome counters, one latency
// histogram per endpoint, errors by status or transport code, and a bounded, collapsed list of unexpected answers.
import type { DeviceEvent, Endpoint } from '../device/types.ts';
import type { Exchange } from '../transport/types.ts';
import { DeploymentOutcomes, type DeploymentTotals } from './deployment-outcomes.ts';
import { Histogram, type LatencySummary } from './histogram.ts';

export interface ClientCounts {
  /** Top-level devices (one client each) created so far. */
  created: number;
  /** Devices that received a clientId. */
  onboarded: number;
  /** Devices whose capabilities were accepted and that are polling (now). */
  reporting: number;
  failed: number;
}

export interface UnexpectedAnswer {
  endpoint: Endpoint | 'device';
  /** HTTP status, absent for a transport error or a device that threw. */
  status?: number;
  code?: string;
  message: string;
  count: number;
  /** The first device that met it. */
  deviceId: string;
  exchange?: Exchange;
}

export interface FleetTotals {
  clients: ClientCounts;
  /** DeviceIds the WFM holds a document for, each once: a PUT answered 201, or 200 for a deviceId it already held (children of see-thru gateways included). */
  deviceIdsCreated: number;
  requests: { total: number; expected: number; unexpected: number; transportErrors: number; aborted: number };
  /** Responses with status ≥ 400 by status, and transport errors by code (aborts excluded). */
  errors: Record<string, number>;
  /** Latest reported deployment states, counted per report. */
  deploymentReports: Record<string, number>;
  /** What became of the deployments the fleet assigned. */
  deployments: DeploymentTotals;
  latency: Partial<Record<Endpoint, LatencySummary>>;
  unexpected: UnexpectedAnswer[];
  /** Unexpected answers that did not fit in the bounded list. */
  unexpectedNotListed: number;
}

export class FleetStats {
  readonly clients: ClientCounts = { created: 0, onboarded: 0, reporting: 0, failed: 0 };
  deviceIdsCreated = 0;
  /** DeviceIds the WFM accepted a document for: each counts once. */
  private readonly held = new Set<string>();
  readonly requests = { total: 0, expected: 0, unexpected: 0, transportErrors: 0, aborted: 0 };
  readonly errors = new Map<string, number>();
  private readonly deploymentStates = new Map<string, number>();
  /** A failed deployment no fault knob explains is listed with the unexpected answers, its report as evidence. */
  readonly deployments = new DeploymentOutcomes((deviceId, code, message) =>
    this.note({ endpoint: 'status', code, message: message.split(deviceId).join('<deviceId>'), deviceId }),
  );
  private readonly latency = new Map<Endpoint, Histogram>();
  /** Every endpoint's latencies since the last interval line (--metrics-out). */
  readonly window = new Histogram();
  private readonly unexpected = new Map<string, UnexpectedAnswer>();
  private unexpectedNotListed = 0;

  constructor(private readonly maxUnexpected = 50) {}

  /** The runner's observer for every device. */
  readonly record = (event: DeviceEvent): void => {
    switch (event.type) {
      case 'response':
        this.requests.total++;
        this.histogram(event.endpoint).record(event.latencyMs);
        this.window.record(event.latencyMs);
        if (event.status >= 400) bump(this.errors, String(event.status));
        if (event.endpoint === 'capabilities.put') this.countHeld(event.subject, event.status);
        if (event.expected) this.requests.expected++;
        else {
          this.requests.unexpected++;
          const message = answerText(event.exchange).split(event.deviceId).join('<deviceId>');
          this.note({ endpoint: event.endpoint, status: event.status, message, deviceId: event.deviceId, exchange: event.exchange });
        }
        return;
      case 'transport-error':
        this.requests.total++;
        // Our own abort (Ctrl-C) is not the target's fault.
        if (event.code === 'WFMCK_E_ABORTED') return void this.requests.aborted++;
        this.requests.transportErrors++;
        bump(this.errors, event.code);
        this.note({
          endpoint: event.endpoint,
          code: event.code,
          message: event.message.split(event.deviceId).join('<deviceId>'),
          deviceId: event.deviceId,
          exchange: event.exchange,
        });
        return;
      case 'deployment':
        bump(this.deploymentStates, event.state);
        return;
      case 'phase':
        return;
    }
  };

  /** A device's start() or tick() threw: a kit or device bug, listed like an unexpected answer. */
  deviceError(deviceId: string, err: unknown): void {
    this.requests.unexpected++;
    this.note({
      endpoint: 'device',
      code: (err as { code?: string }).code ?? 'WFMCK_E_DEVICE',
      message: String((err as Error)?.message ?? err),
      deviceId,
    });
  }

  /** The assignDeployment hook failed for one of a client's devices: listed like an unexpected answer. */
  assignError(deviceId: string, err: unknown): void {
    this.note({
      endpoint: 'device',
      code: (err as { code?: string }).code ?? 'WFMCK_E_HOOK',
      message: `assignDeployment: ${String((err as Error)?.message ?? err)}`,
      deviceId,
    });
  }

  totals(): FleetTotals {
    return {
      clients: { ...this.clients },
      deviceIdsCreated: this.deviceIdsCreated,
      requests: { ...this.requests },
      errors: Object.fromEntries(this.errors),
      deploymentReports: Object.fromEntries(this.deploymentStates),
      deployments: this.deployments.totals(),
      latency: Object.fromEntries([...this.latency].map(([e, h]) => [e, h.mergeableSummary()])),
      unexpected: [...this.unexpected.values()].sort((a, b) => b.count - a.count),
      unexpectedNotListed: this.unexpectedNotListed,
    };
  }

  /**
   * A deviceId is held once its document is accepted: 201, or 200 from a WFM that already held it (a device whose
   * certificate came from --cert-cache is the client of its last run). An event that names no subject counts its 201s.
   */
  private countHeld(subject: string | undefined, status: number): void {
    if (subject === undefined) return void (status === 201 && this.deviceIdsCreated++);
    if ((status === 201 || status === 200) && !this.held.has(subject)) {
      this.held.add(subject);
      this.deviceIdsCreated++;
    }
  }

  private histogram(endpoint: Endpoint): Histogram {
    let h = this.latency.get(endpoint);
    if (!h) this.latency.set(endpoint, (h = new Histogram()));
    return h;
  }

  /** Collapsed by endpoint, status (or code) and message (its deviceId masked); the first exchange is kept as evidence. */
  private note(answer: Omit<UnexpectedAnswer, 'count'>): void {
    const key = `${answer.endpoint}\u0000${answer.status ?? answer.code}\u0000${answer.message}`;
    const seen = this.unexpected.get(key);
    if (seen) seen.count++;
    else if (this.unexpected.size < this.maxUnexpected) this.unexpected.set(key, { ...stripUndefined(answer), count: 1 });
    else this.unexpectedNotListed++;
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** P6: the `error` string of a JSON body when there is one (or RFC 9457 `detail`/`title`), else the body's start. */
export function answerText(exchange: Exchange | undefined): string {
  const body = exchange?.responseBody ?? '';
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    for (const key of ['error', 'detail', 'title']) if (typeof parsed[key] === 'string') return (parsed[key] as string).slice(0, 200);
  } catch {
    // Not JSON: the raw start of the body stands in.
  }
  return body.slice(0, 120);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
