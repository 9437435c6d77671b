// Device certificates minted before a benchmark's clock starts, as a fleet mints them (protocol/native-leaf.ts):
// each a real leaf of the device CA with its own P-256 key.
import type { KeyObject } from 'node:crypto';
import { nativeLeafIssuer, type NativeLeafIssuer } from '../protocol/native-leaf.ts';
import type { Issued } from '../protocol/pki.ts';

export interface MintedCertificate {
  der: Buffer;
  /** What a fleet device holds (simulators/fleet/devices.ts), the same KeyObject as privateKey. */
  key: KeyObject;
  privateKey: KeyObject;
}

export class CertificateMint {
  private readonly issue: NativeLeafIssuer;

  constructor(ca: Issued) {
    this.issue = nativeLeafIssuer(ca);
  }

  async mint(commonName: string): Promise<MintedCertificate> {
    const leaf = this.issue({ commonName, usage: ['client'] });
    return { der: leaf.der, key: leaf.privateKey, privateKey: leaf.privateKey };
  }
}
