// The core every simulated device client shares: from its connection to the WFM and its credentials, the Device API
// client (P3 signer or P10 client id) and the driver (a plain device, an opaque or a see-thru gateway) over it. The
// fleet's environment builds each of its devices with it (simulators/fleet/devices.ts), and the kit's own client under
// test builds its one (client-runner.ts), so a fleet device and the client a device-persona check judges are one
// machine.
import type { DeploymentStatusReport } from '../spec/types.ts';
import { DeviceApiClient, type CallOptions, type DeviceApiClientOptions, type Payload } from './device-api.ts';
import { createDevice, createSeeThruGateway, type ChangeableDevice, type DeviceEnvironment, type SeeThruGateway } from './device/driver.ts';
import type { DeviceDescription } from './device/types.ts';
import type { HttpResponse, RequestSigner, Transport } from './transport/types.ts';

/** What a device client is built from, besides its description: the driver's environment but its API and certificate. */
export interface DeviceClientParts extends Omit<DeviceEnvironment, 'api' | 'certificate'> {
  /** Its connection to the WFM. */
  transport: Transport;
  /** Base of the state manifests' relative URLs; default the transport's own. */
  baseUrl?: string;
  /** Its certificate (seed: its device certificate; miaf: its X.509-SVID leaf), DER. */
  certificateDer: Buffer;
  /** P3: the key its requests are signed with (seed); miaf clients are known by their TLS certificate instead. */
  signer?: RequestSigner;
  /** Client faults only: which requests go unsigned although the profile signs them. */
  unsigned?: DeviceApiClientOptions['unsigned'];
  /** Every status report it sent, with the HTTP status it was answered with (a fleet's statistics). */
  onStatusReport?: (report: DeploymentStatusReport, status: number) => void;
}

/** A plain device or an opaque gateway (as `desc.kind` says), or a see-thru gateway driven as a plain device. */
export function deviceClient(desc: DeviceDescription, parts: DeviceClientParts): ChangeableDevice {
  return createDevice(desc, environmentOf(parts));
}

/** A see-thru gateway that can also be told a device behind it went away or lost its link (§2.2). */
export function seeThruGatewayClient(desc: DeviceDescription, parts: DeviceClientParts): SeeThruGateway {
  return createSeeThruGateway(desc, environmentOf(parts));
}

function environmentOf(parts: DeviceClientParts): DeviceEnvironment {
  const { transport, baseUrl, certificateDer, signer, unsigned, onStatusReport, ...env } = parts;
  const options: DeviceApiClientOptions = {
    transport,
    profile: env.profile,
    ...(baseUrl !== undefined && { baseUrl }),
    ...(signer && { signer }),
    ...(env.clientId !== undefined && { clientId: env.clientId }),
    ...(unsigned && { unsigned }),
  };
  const api = onStatusReport ? new ReportingApi(options, onStatusReport) : new DeviceApiClient(options);
  return { ...env, api, certificate: certificateDer.toString('base64') };
}

/** The Device API client that also tells its owner what each status report said and how the WFM answered it. */
class ReportingApi extends DeviceApiClient {
  constructor(
    options: DeviceApiClientOptions,
    private readonly onReport: (report: DeploymentStatusReport, status: number) => void,
  ) {
    super(options);
  }

  override async postStatus(deploymentId: string, report: Payload<DeploymentStatusReport>, opts?: CallOptions): Promise<HttpResponse> {
    const response = await super.postStatus(deploymentId, report, opts);
    if (typeof report === 'object' && !(report instanceof Uint8Array)) this.onReport(report, response.status);
    return response;
  }
}
