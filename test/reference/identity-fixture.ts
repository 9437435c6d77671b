// Test setup shared by the identity tests: a TLS CA, a 127.0.0.1 server certificate and a trusting client.
import { Agent, request } from 'undici';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { startIdentity, type IdentityOptions, type IdentityService } from '../../reference/identity/server.ts';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface IdentityFixture {
  service: IdentityService;
  /** One request over HTTPS trusting only the test TLS CA. */
  call(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Reply>;
  close(): Promise<void>;
}

const tlsCa = createRootCa('wfmck identity test TLS CA');
const tlsLeaf = tlsCa.then((ca) => issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usage: ['server'] }));

export async function identityFixture(opts: Omit<IdentityOptions, 'tls'> = {}): Promise<IdentityFixture> {
  const [ca, leaf] = await Promise.all([tlsCa, tlsLeaf]);
  const service = await startIdentity({ ...opts, tls: { cert: leaf.certPem, key: leaf.keyPem } });
  const agent = new Agent({ connect: { ca: ca.certPem } });
  return {
    service,
    async call(url, init = {}) {
      const res = await request(url, {
        dispatcher: agent,
        method: (init.method ?? 'GET') as 'GET',
        headers: init.headers,
        body: init.body,
      });
      const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      return { status: res.statusCode, headers, text: await res.body.text() };
    },
    async close() {
      await agent.close();
      await service.close();
    },
  };
}
