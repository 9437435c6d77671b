// Grammars and fragments shared by the resource schemas (JSON Schema draft 2020-12, compiled by ajv).

/** A schema as a plain JSON object; `schemaOf` hands these to generators, so no `$ref` is used anywhere. */
export type JsonSchema = { [keyword: string]: unknown };

export const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** §2.1.1/§4.1: RFC 3986 unreserved characters, `/` between non-empty segments. */
export const DEVICE_ID_PATTERN = '^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$';
/** P4: a deployment's `metadata.deviceId` may end in `/*` (the see-thru gateway chooses the child). */
export const DEPLOYMENT_DEVICE_ID_PATTERN = '^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*(/\\*)?$';
/** Any RFC 9562 UUID version, either case: §2.4 only says "UUID". */
export const UUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';
/** OCI image-spec digest grammar `algorithm:encoded`; the per-algorithm length check is a rule. */
export const DIGEST_PATTERN = '^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$';
/** semver.org's recommended SemVer 2.0 expression; no leading `v` (§2.7, §9). */
export const SEMVER_PATTERN =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)' +
  '(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*))*))?' +
  '(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$';
/** OCI distribution-spec tag and repository name grammars. */
export const OCI_TAG_PATTERN = '^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$';
export const OCI_REPOSITORY_PATTERN = '^[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*(\\/[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*)*$';
/** RFC 6838 media type as the OCI image-spec schema writes it. */
export const MEDIA_TYPE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$';
/** RFC 4648 §4 base64 (standard alphabet, padding optional). */
export const BASE64_PATTERN = '^[A-Za-z0-9+/]+={0,2}$';

export const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
