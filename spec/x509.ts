// The one entry point to @peculiar/x509: it needs the reflect polyfill loaded first and a WebCrypto provider.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };
