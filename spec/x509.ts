// The one entry point to @peculiar/x509: it needs the reflect polyfill loaded first and a WebCrypto provider.
// It loads on first use, not on import: with its polyfill and container it is about 150 ms of CPU, and most of the
// kit's processes (Playwright's runner, a registry check's worker, `wfmck run` against a target) never touch a
// certificate through it.
import { webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';

let loaded: typeof X509 | undefined;

function load(): typeof X509 {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  require('reflect-metadata');
  const x = require('@peculiar/x509') as typeof X509;
  x.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x.cryptoProvider.set>[0]);
  return (loaded = x);
}

export const x509: typeof X509 = new Proxy({} as typeof X509, { get: (_, name) => Reflect.get(load(), name) });

/** The types the kit names as `x509.X`, beside the value above. */
export declare namespace x509 {
  export type X509Certificate = X509.X509Certificate;
  export type KeyUsageFlags = X509.KeyUsageFlags;
  export type JsonGeneralName = X509.JsonGeneralName;
  export type GeneralName = X509.GeneralName;
  export type Extension = X509.Extension;
  export type Pkcs10CertificateRequest = X509.Pkcs10CertificateRequest;
}
