// Stand-in devices for exercising the runner without a WFM (in the manner of undici's MockAgent): each "request"
// takes a token, waits a scripted latency and emits the DeviceEvent a real device would.
import type { DeviceDescription, DeviceEvent, DevicePhase, Endpoint, SimulatedDevice } from '../device/types.ts';
import { sleep } from '../transport/retry.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { DeviceContext, EnvironmentFactory } from './runner.ts';

export interface FakeScript {
  /** Per request (default 1 ms). */
  latencyMs?: number;
  /** Status for one request; default 200 (201 for a device's first capabilities). Unexpected when ≥ 400. */
  status?: (deviceId: string, endpoint: Endpoint) => number | undefined;
}

export interface FakeEnvironmentProbe {
  created: number;
  /** Most devices inside start() at the same moment. */
  maxStarting: number;
  requests: number;
  closed: boolean;
}

export function fakeEnvironment(script: FakeScript = {}): { factory: EnvironmentFactory; probe: FakeEnvironmentProbe } {
  const probe: FakeEnvironmentProbe = { created: 0, maxStarting: 0, requests: 0, closed: false };
  let starting = 0;
  const factory: EnvironmentFactory = async (_target, limiter) => {
    const inFlight = new AbortController();
    return {
      createDevice(desc, ctx) {
        probe.created++;
        return new FakeDevice(desc, ctx, limiter, AbortSignal.any([ctx.signal, inFlight.signal]), script, probe, {
          enter: () => (probe.maxStarting = Math.max(probe.maxStarting, ++starting)),
          leave: () => starting--,
        });
      },
      abort: () => inFlight.abort(new Error('fleet interrupted')),
      close: async () => void (probe.closed = true),
    };
  };
  return { factory, probe };
}

class FakeDevice implements SimulatedDevice {
  phase: DevicePhase = 'new';
  clientId: string | undefined;
  readonly id: string;
  readonly kind: DeviceDescription['kind'];

  constructor(
    private readonly desc: DeviceDescription,
    private readonly ctx: DeviceContext,
    private readonly limiter: RateLimiter,
    private readonly signal: AbortSignal,
    private readonly script: FakeScript,
    private readonly probe: FakeEnvironmentProbe,
    private readonly gauge: { enter(): void; leave(): void },
  ) {
    this.id = desc.id;
    this.kind = desc.kind;
  }

  async start(): Promise<void> {
    this.gauge.enter();
    try {
      if (!(await this.call(this.id, 'certificate'))) return;
      if (!(await this.call(this.id, 'onboarding'))) return;
      this.clientId = `client-${this.id}`;
      this.emit({ type: 'phase', deviceId: this.id, phase: 'onboarded' });
      // A see-thru gateway reports itself, then every device behind it, parents first (§2.2).
      const visible = this.kind === 'see-thru-gateway' ? flatten(this.desc) : [this.desc];
      for (const d of visible) if (!(await this.call(d.id, 'capabilities.put', 201))) return;
      this.phase = 'reporting';
      this.emit({ type: 'phase', deviceId: this.id, phase: 'reporting' });
    } finally {
      this.gauge.leave();
    }
  }

  async tick(): Promise<void> {
    await this.call(this.id, 'desired-state');
  }

  async stop(): Promise<void> {
    this.phase = 'stopped';
  }

  /** One scripted request; false (and phase `failed`) when it was not the expected answer. */
  private async call(deviceId: string, endpoint: Endpoint, fallback = 200): Promise<boolean> {
    const began = performance.now();
    try {
      await this.limiter.take(this.signal);
      this.probe.requests++;
      await sleep(this.script.latencyMs ?? 1, this.signal);
    } catch (err) {
      this.emit({ type: 'transport-error', deviceId, endpoint, code: 'WFMCK_E_ABORTED', message: String((err as Error).message) });
      this.phase = 'failed';
      return false;
    }
    const status = this.script.status?.(deviceId, endpoint) ?? fallback;
    const expected = status < 400;
    const exchange = expected
      ? undefined
      : {
          id: `x-${deviceId}-${endpoint}`,
          method: 'GET',
          url: `/fake/${endpoint}`,
          requestHeaders: {},
          status,
          responseBody: JSON.stringify({ error: `scripted ${status} for ${deviceId}` }),
          startedAt: new Date().toISOString(),
          durationMs: 1,
          attempt: 1,
        };
    this.emit({
      type: 'response',
      deviceId,
      endpoint,
      status,
      latencyMs: performance.now() - began,
      expected,
      ...(exchange ? { exchange } : {}),
    });
    if (!expected) this.phase = 'failed';
    return expected;
  }

  private emit(event: DeviceEvent): void {
    this.ctx.observer(event);
  }
}

function flatten(d: DeviceDescription): DeviceDescription[] {
  return [d, ...(d.children ?? []).flatMap(flatten)];
}
