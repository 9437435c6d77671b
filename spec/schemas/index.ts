// The resource schemas by name, and one validate() for all of them (ajv, JSON Schema draft 2020-12).
import { createRequire } from 'node:module';
import type { Options, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { SEED_PROFILE } from '../profile.ts';
import { applicationDeploymentSchema } from './application-deployment.ts';
import { applicationDescriptionSchema } from './application-description.ts';
import { compiledValidator } from './compiled.ts';
import { deviceCapabilitiesSchema } from './capabilities.ts';
import { miafDeviceCapabilitiesSchema } from './miaf-capabilities.ts';
import type { JsonSchema } from './common.ts';
import { discoveryDocumentSchema } from './discovery.ts';
import { toSchemaErrors, type SchemaError } from './errors.ts';
import { appPackageManifestSchema, composeComponentManifestSchema, ociImageManifestSchema, tagListSchema } from './oci.ts';
import { onboardingRequestSchema, onboardingResponseSchema } from './onboarding.ts';
import { problemDetailsSchema } from './problem-details.ts';
import { stateManifestSchema } from './state-manifest.ts';
import { deploymentStatusReportSchema } from './status-report.ts';
import { trustBundleSchema } from './trust-bundle.ts';

export type { JsonSchema } from './common.ts';
export { formatSchemaErrors, type SchemaError } from './errors.ts';

export type SchemaName =
  | 'DeviceCapabilities'
  | 'OnboardingRequest'
  | 'OnboardingResponse'
  | 'DeploymentStatusReport'
  | 'DiscoveryDocument'
  | 'TrustBundle'
  | 'OciImageManifest'
  | 'AppPackageManifest'
  | 'ComposeComponentManifest'
  | 'TagList'
  | 'StateManifest'
  | 'ApplicationDeployment'
  | 'ApplicationDescription'
  // P10 edition miaf
  | 'MiafDeviceCapabilities'
  | 'ProblemDetails';

export type SchemaResult = { ok: true } | { ok: false; errors: SchemaError[] };

/** Each schema, built from the vendor token (P1) where a media type or annotation key carries it. */
const BUILDERS: Record<SchemaName, (vendor: string) => JsonSchema> = {
  DeviceCapabilities: () => deviceCapabilitiesSchema,
  OnboardingRequest: () => onboardingRequestSchema,
  OnboardingResponse: () => onboardingResponseSchema,
  DeploymentStatusReport: () => deploymentStatusReportSchema,
  DiscoveryDocument: () => discoveryDocumentSchema,
  TrustBundle: () => trustBundleSchema,
  OciImageManifest: () => ociImageManifestSchema,
  AppPackageManifest: appPackageManifestSchema,
  ComposeComponentManifest: composeComponentManifestSchema,
  TagList: () => tagListSchema,
  StateManifest: stateManifestSchema,
  ApplicationDeployment: () => applicationDeploymentSchema,
  ApplicationDescription: () => applicationDescriptionSchema,
  MiafDeviceCapabilities: () => miafDeviceCapabilitiesSchema,
  ProblemDetails: () => problemDetailsSchema,
};

const VENDOR_SPECIFIC = new Set<SchemaName>(['AppPackageManifest', 'ComposeComponentManifest', 'StateManifest']);

export const SCHEMA_NAMES = Object.keys(BUILDERS) as SchemaName[];

const OPTIONS: Options = { allErrors: true, strict: true, allowUnionTypes: true };
const schemas = new Map<string, JsonSchema>();
const validators = new Map<string, ValidateFunction>();

function cacheKey(name: SchemaName, vendor: string): string {
  return VENDOR_SPECIFIC.has(name) ? `${name}\u0000${vendor}` : name;
}

/** The raw schema, frozen: generators may walk it but never change what validate() uses. */
export function schemaOf(name: SchemaName, vendor: string = SEED_PROFILE.vendor): JsonSchema {
  const key = cacheKey(name, vendor);
  let schema = schemas.get(key);
  if (!schema) {
    schema = deepFreeze(structuredClone(BUILDERS[name](vendor)));
    schemas.set(key, schema);
  }
  return schema;
}

export function validate(name: SchemaName, value: unknown, opts: { vendor?: string } = {}): SchemaResult {
  const vendor = opts.vendor ?? SEED_PROFILE.vendor;
  const key = cacheKey(name, vendor);
  let check = validators.get(key);
  if (!check) {
    check = compiledValidator({ flavour: '2020-12+formats', options: OPTIONS, schema: schemaOf(name, vendor), ajv: draft2020 });
    validators.set(key, check);
  }
  return check(value) ? { ok: true } : { ok: false, errors: toSchemaErrors(check.errors) };
}

/** ajv itself loads only when a schema is compiled here, not read from the cache (compiled.ts). */
function draft2020(options: Options): Ajv2020 {
  const require = createRequire(import.meta.url);
  const ajv = new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(options);
  (require('ajv-formats') as typeof import('ajv-formats')).default(ajv);
  return ajv;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
