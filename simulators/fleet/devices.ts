// The real fleet environment: the device driver over ONE shared undici agent, every request under the fleet's
// token bucket and cut short by Ctrl-C, each device with its own certificate from the device CA.
import { createPrivateKey } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { certificateKeyId, issueCertificate } from '../../reference/pki.ts';
import { resolveProfile } from '../../spec/profile.ts';
import { DeviceApiClient } from '../device-api.ts';
import { createDevice } from '../device/driver.ts';
import { RegistryClient } from '../registry-client.ts';
import { sleep } from '../transport/retry.ts';
import type { Transport } from '../transport/types.ts';
import { createSharedAgent, createTransport } from '../transport/undici-transport.ts';
import { rateLimited } from './rate-limit.ts';
import type { EnvironmentFactory } from './runner.ts';
import { isLoopbackHost } from './target.ts';

export const realEnvironment: EnvironmentFactory = async (target, limiter) => {
  const profile = target.profile ?? resolveProfile();
  const agent = createSharedAgent(target.ca === undefined ? {} : { ca: target.ca });
  const cancel = new AbortController();
  // Every request in flight listens to it: thousands, by design.
  setMaxListeners(0, cancel.signal);
  const open = (baseUrl: string): Transport => cancellable(rateLimited(createTransport({ baseUrl, dispatcher: agent }), limiter), cancel.signal);
  const wfm = open(target.wfm);
  const registries = new Map<string, RegistryClient>();
  const registry = (repositoryUrl: string): RegistryClient => {
    const origin = `https://${repositoryUrl.replace(/^oci:\/\//, '')}`;
    // Components name their registry; a fleet still never reaches past loopback.
    if (!isLoopbackHost(new URL(origin).hostname)) throw new Error(`fleet devices only pull from loopback registries, not ${repositoryUrl}`);
    let client = registries.get(origin);
    if (!client) registries.set(origin, (client = new RegistryClient({ transport: open(origin) })));
    return client;
  };
  return {
    async createDevice(desc, ctx) {
      const issued = await issueCertificate(target.deviceCa, { commonName: desc.id, usage: ['client'] });
      const der = Buffer.from(issued.cert.rawData);
      const api = new DeviceApiClient({
        transport: wfm,
        baseUrl: target.wfm,
        profile,
        signer: { keyId: certificateKeyId(der), privateKey: createPrivateKey(issued.keyPem), algorithm: profile.signatureAlgorithm },
      });
      return createDevice(desc, {
        api,
        registry,
        observer: ctx.observer,
        profile,
        certificate: der.toString('base64'),
        sleep: (ms) => sleep(ms, ctx.signal),
      });
    },
    abort: () => cancel.abort(new Error('fleet interrupted')),
    close: async () => {
      if (cancel.signal.aborted) await agent.destroy();
      else await agent.close();
    },
  };
};

/** Adds the fleet's stop signal to every request, so Ctrl-C aborts what is in flight (WFMCK_E_ABORTED). */
function cancellable(inner: Transport, stop: AbortSignal): Transport {
  return {
    request: (opts) => inner.request({ ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, stop]) : stop }),
    close: () => inner.close(),
  };
}
