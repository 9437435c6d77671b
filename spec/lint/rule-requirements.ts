// The one table from rule names (spec/rules and spec/lint) to the catalog requirement each finding breaks, and how
// strictness (P9) judges it where the catalog records a kit reading or an ambiguity.

/**
 * - `kit`: the kit's reading, stricter than the text: fails in default and strict, warns in lenient.
 * - `ambiguous`: the catalog's errata call it ambiguous: warns in default, fails only in strict.
 * - `not-judged`: the errata say no strictness fails it: always a warning.
 */
export type Reading = 'kit' | 'ambiguous' | 'not-judged';

export interface RuleRequirement {
  requirement: string;
  reading?: Reading;
  /** Where one rule name covers two requirements, the caller names the variant (e.g. a hard link). */
  variants?: Record<string, string>;
}

const r = (requirement: string, reading?: Reading, variants?: Record<string, string>): RuleRequirement => ({
  requirement,
  ...(reading ? { reading } : {}),
  ...(variants ? { variants } : {}),
});

export const RULE_REQUIREMENTS: Readonly<Record<string, RuleRequirement>> = {
  // spec/rules/capabilities.ts (§2.1, §2.1.1, §2.2)
  'device-id-syntax': r('PROPS-ID-CHARSET', undefined, { 'status-report': 'STATUS-DEVICEID-CHILD' }),
  'hosting-fields-partial': r('PROPS-HOSTING-FIELDS'),
  'otel-collector-required': r('PROPS-OTEL-HOSTING-TRUE'),
  'runtimes-required': r('PROPS-RUNTIMES-NONEMPTY'),
  'deployment-types-required': r('PROPS-DEPLOYTYPES-NONEMPTY'),
  'custom-needs-labels': r('ENUM-CUSTOM-NEEDS-LABELS'),
  'defaulted-custom-needs-labels': r('ENUM-CUSTOM-NEEDS-LABELS', 'not-judged'),
  'memory-quantity': r('PROPS-MEMORY-FORMAT'),
  'storage-quantity': r('PROPS-STORAGE-FORMAT'),
  'quantity-format': r('PROPS-MEMORY-FORMAT', 'not-judged', { storage: 'PROPS-STORAGE-FORMAT' }),
  'cpu-cores-positive': r('CPU-CORES-REQUIRED'),
  'id-matches-path': r('PROPS-ID-HIERARCHY', 'ambiguous'),
  'miaf-root-closed': r('MIAF-CLIENT-CAP-ROOT-CLOSED'),
  // spec/rules/opaque-aggregation.ts (§2.2)
  'opaque-cpus-one-per-child-cpu': r('GW-OPAQUE-AGG-CPUS'),
  'opaque-memory-summed': r('GW-OPAQUE-AGG-MEMORY'),
  'opaque-storage-summed': r('GW-OPAQUE-AGG-STORAGE'),
  'opaque-interfaces-added': r('GW-OPAQUE-AGG-INTERFACES'),
  'opaque-runtimes-union': r('GW-OPAQUE-AGG-RUNTIMES'),
  'opaque-deployment-types-gateway': r('GW-OPAQUE-AGG-DEPLOYTYPES'),
  // spec/rules/status-report.ts (§2.4)
  'component-extra': r('STATUS-COMPONENTS-ONE-PER'),
  'component-duplicate': r('STATUS-COMPONENTS-ONE-PER'),
  'component-missing': r('STATUS-COMPONENTS-ONE-PER'),
  'error-partially-empty': r('STATUS-ERROR-FIELDS'),
  'reserved-code-source': r('STATUS-RESERVED-SOURCE'),
  'error-source': r('STATUS-ERROR-SOURCE-COMPONENT', undefined, {
    'status.error': 'STATUS-ERROR-SOURCE-DEPLOYMENT',
    gateway: 'STATUS-ERROR-SOURCE-GATEWAY',
  }),
  'device-id-required-for-child': r('STATUS-DEVICEID-CHILD'),
  'device-id-mismatch': r('STATUS-DEVICEID-CHILD'),
  'device-id-outside-reporter': r('STATUS-DEVICEID-CHILD'),
  // spec/rules/manifest-version.ts (§2.4.1, P4)
  'report-before-adoption': r('AMV-INDEPENDENT-OF-OUTCOME'),
  'adopted-version-present': r('AMV-PRESENT'),
  'adopted-version-number': r('AMV-PRESENT'),
  'adopted-version-not-advanced-by-fetch': r('AMV-FETCH-DOES-NOT-ADVANCE'),
  'adopted-version-resync': r('AMV-RESYNC'),
  'adopted-version-first-install': r('AMV-FIRST-INSTALL'),
  'adopted-version-held': r('AMV-EQUALS-HELD'),
  'manifest-version-range': r('DS-MANIFESTVERSION-RANGE'),
  'manifest-version-repeats': r('AMV-MONOTONIC'),
  'manifest-version-decreases': r('AMV-MONOTONIC'),
  // spec/rules/desired-state.ts (P4): what a WFM's bundle holds; the client's duty to check it is the variant `client`
  'bundle-extra-entry': r('DS-BUNDLE-CONTENTS', undefined, { client: 'DS-CLIENT-BUNDLE-CONTENTS' }),
  'bundle-missing-deployment': r('DS-BUNDLE-CONTENTS', undefined, { client: 'DS-CLIENT-BUNDLE-CONTENTS' }),
  // spec/rules/trust-bundle.ts (§2.5, §2.6, §4.6)
  'x5c-present': r('BUNDLE-KEY-X5C'),
  'x5c-certificate': r('BUNDLE-KEY-X5C'),
  'jwk-matches-certificate': r('BUNDLE-KEY-EC-COORDS'),
  'x5c-one-certificate': r('BUNDLE-ANCHORS-ONLY'),
  'spiffe-sequence-integer': r('BUNDLE-SEQUENCE-NUMBER'),
  'spiffe-sequence-decreases': r('BUNDLE-SEQUENCE-NUMBER'),
  'spiffe-sequence-increases': r('BUNDLE-SEQUENCE-NUMBER'),
  'discovery-document-object': r('DISC-TRUSTDOMAIN-REQUIRED'),
  'discovery-trust-domain': r('DISC-TRUSTDOMAIN-REQUIRED'),
  'trust-domain-name': r('DISC-TRUSTDOMAIN-REQUIRED'),
  'discovery-trust-bundle-uri': r('DISC-TRUSTBUNDLEURI-HTTPS'),
  'spiffe-id': r('BUNDLE-TRUSTDOMAIN-MATCH'),
  'trust-domain-mismatch': r('BUNDLE-TRUSTDOMAIN-MATCH'),
  'bundle-origin-covered': r('BUNDLE-CROSS-ORIGIN-TRUST'),
  // spec/rules/svid-leaf.ts (P10, edition miaf)
  'svid-leaf-ca': r('SVID-LEAF-NOT-CA'),
  'svid-leaf-cert-sign': r('SVID-LEAF-NO-CERT-SIGN'),
  'svid-one-uri-san': r('SVID-ONE-URI-SAN'),
  'svid-spiffe-id': r('SVID-SPIFFE-SCHEME'),
  'svid-validity': r('SVID-NOT-EXPIRED'),
  'svid-trust-domain': r('SVID-TRUST-DOMAIN'),
  'svid-key-algorithm': r('SVID-KEY-ALG'),
  // spec/rules/compose-archive.ts (§2.7 rules 1, 2, 3, 7)
  'one-top-level-directory': r('COMPOSE-ONE-TOP-DIR'),
  'no-absolute-path': r('COMPOSE-NO-ABS-PATH'),
  'no-dotdot': r('COMPOSE-NO-DOTDOT'),
  'link-out-of-top': r('COMPOSE-NO-SYMLINK-OUT', undefined, { link: 'COMPOSE-NO-HARDLINK-OUT' }),
  // The catalog errata say no strictness judges these bits; archiveFindings and the device refuse them (kit reading).
  'no-setuid-setgid-sticky': r('COMPOSE-NO-SETUID', 'kit'),
  'no-special-file': r('COMPOSE-VALIDATE-BEFORE-EXTRACT', 'kit'),
  'entry-type-known': r('COMPOSE-VALIDATE-BEFORE-EXTRACT', 'kit'),
  'no-duplicate-entry': r('COMPOSE-VALIDATE-BEFORE-EXTRACT', 'kit'),
  'compose-yaml-missing': r('COMPOSE-FILE-NAME'),
  'compose-yaml-name': r('COMPOSE-FILE-NAME'),
  // spec/rules/compose-file.ts (§2.7 rules 2-6)
  'compose-yaml-parse': r('COMPOSE-SPEC-CONFORMANT'),
  'compose-spec-conformance': r('COMPOSE-SPEC-CONFORMANT'),
  'secret-file-absent': r('COMPOSE-NO-SECRET-FILES'),
  'bind-mount-absent': r('COMPOSE-NO-BIND-MOUNT-CONTENT'),
  'ref-inside-top': r('COMPOSE-REFS-INSIDE'),
  'env-file-present': r('COMPOSE-ENV-FILE-IN-ARCHIVE'),
  'config-file-present': r('COMPOSE-CONFIG-FILE-IN-ARCHIVE'),
  // spec/lint/capabilities.ts: DeviceCapabilities schema errors by field, and SHOULD-level checks
  'properties-required': r('CAP-PROPERTIES-REQUIRED'),
  'identity-fields': r('PROPS-IDENTITY-REQUIRED'),
  'cpu-cores': r('CPU-CORES-REQUIRED'),
  'cpu-architecture': r('ENUM-CPU-ARCH'),
  'peripheral-type-required': r('PROPS-PERIPHERAL-TYPE-REQUIRED'),
  'peripheral-type-value': r('ENUM-PERIPHERAL-TYPE'),
  'interface-type-required': r('PROPS-INTERFACE-TYPE-REQUIRED'),
  'interface-type-value': r('ENUM-INTERFACE-TYPE'),
  'hosting-field-type': r('PROPS-HOSTING-FIELDS'),
  'label-value-type': r('CAP-LABELS-VALUE-TYPES'),
  'extension-object': r('CAP-EXT-AT-ROOT'),
  // The schema closes nested objects to catch typos; §2.1 names no rule against extra fields there.
  'unknown-field': r('GW-SEETHRU-SAME-SCHEMA', 'kit'),
  'capabilities-schema': r('GW-SEETHRU-SAME-SCHEMA'),
  'label-domain-prefix': r('CAP-LABELS-DOMAIN-PREFIX'),
  'runtime-value-known': r('ENUM-RUNTIME-VALUES', 'ambiguous'),
  'deployment-type-value-known': r('ENUM-DEPLOYTYPE-VALUES', 'ambiguous'),
  // spec/lint/package.ts: the application description and its resource files (§2.7, §9)
  'description-present': r('PKG-ONE-DESCRIPTION-LAYER'),
  'description-yaml': r('PKG-ONE-DESCRIPTION-LAYER'),
  'description-schema': r('PKG-ONE-DESCRIPTION-LAYER'),
  'version-present': r('PKG-TAG-EQUALS-VERSION'),
  'version-oci-tag': r('PKG-TAG-EQUALS-VERSION'),
  'tag-equals-version': r('PKG-TAG-EQUALS-VERSION'),
  'resource-listed-path': r('PKG-RESOURCES-LISTED'),
  'resource-path': r('PKG-RESOURCE-LAYER'),
  'resource-exists': r('PKG-RESOURCE-LAYER'),
  'resource-format': r('PKG-RESOURCE-LAYER'),
  'resource-media-type': r('PKG-RESOURCE-LAYER'),
  'resource-listed': r('PKG-RESOURCES-LISTED'),
  'component-repository-oci': r('PKG-COMPONENT-REPOSITORY-OCI'),
  'component-revision-semver': r('PKG-COMPONENT-REVISION-SEMVER'),
  // spec/lint/manifest.ts and spec/lint/pushed.ts: pushed manifests and blobs (§2.7, §4.7, §9)
  'manifest-json': r('PKG-MANIFEST-MEDIATYPE'),
  'manifest-schema-version': r('PKG-SCHEMA-VERSION-2'),
  'manifest-media-type': r('PKG-MANIFEST-MEDIATYPE'),
  'package-artifact-type': r('PKG-ARTIFACTTYPE'),
  'config-empty': r('PKG-CONFIG-EMPTY'),
  'layer-descriptor': r('PKG-LAYER-DESCRIPTOR'),
  'layer-title': r('PKG-LAYER-TITLE'),
  'resource-annotation': r('PKG-RESOURCE-ANNOTATION'),
  'package-layer-media-type': r('PKG-RESOURCE-LAYER'),
  'compose-artifact-type': r('COMPOSE-ARTIFACTTYPE'),
  'compose-one-layer': r('COMPOSE-ONE-LAYER'),
  'compose-layer-media-type': r('COMPOSE-LAYER-MEDIATYPE'),
  'compose-annotations-on-layer': r('COMPOSE-ANNOT-ON-LAYER'),
  'compose-annot-type': r('COMPOSE-ANNOT-TYPE'),
  'compose-annot-version': r('COMPOSE-ANNOT-VERSION-SEMVER'),
  'compose-version-matches-tag': r('COMPOSE-ANNOT-VERSION-MATCHES-TAG'),
  'compose-tag-semver': r('VER-COMPOSE-TAG-SEMVER'),
  'compose-annot-title': r('COMPOSE-ANNOT-TITLE'),
  'compose-annot-authors': r('COMPOSE-ANNOT-AUTHORS'),
  'compose-annot-description': r('COMPOSE-ANNOT-DESCRIPTION'),
  'compose-annot-oci-version': r('COMPOSE-ANNOT-OCI-VERSION'),
  'compose-oci-version-equal': r('COMPOSE-ANNOT-OCI-VERSION-EQUAL'),
  'compose-publish-artifact': r('COMPOSE-NO-COMPOSE-PUBLISH'),
  'blob-missing': r('REG-BLOB-BY-DIGEST'),
  'blob-digest': r('REG-BLOB-BY-DIGEST'),
  'blob-size': r('PKG-LAYER-DESCRIPTOR'),
  // spec/lint/compose-archive.ts: archives the kit cannot judge as written (§2.7)
  'compose-gzip-tar': r('COMPOSE-GZIP-TAR'),
  'tar-header-ambiguous': r('COMPOSE-VALIDATE-BEFORE-EXTRACT', 'kit'),
  // spec/rules/wfm-retrieval.ts: the WFM's pulls judged from a registry's request log (§4.7, §5)
  'manifest-pulled': r('REG-WFM-RETRIEVAL', 'kit'),
  'versions-listed-first': r('REG-WFM-RETRIEVAL', 'kit'),
  'each-layer-pulled': r('REG-WFM-RETRIEVAL', 'kit'),
  'layers-after-manifest': r('REG-WFM-RETRIEVAL', 'kit'),
  'pull-is-read-only': r('REG-WFM-OCI-PULL', 'kit'),
  'manifest-accept': r('REG-WFM-OCI-PULL', 'kit'),
  'blob-by-digest': r('REG-WFM-OCI-PULL', 'kit'),
  'token-requested': r('AUTH-WFM-REGISTRY-TOKEN'),
  'token-used': r('AUTH-WFM-REGISTRY-TOKEN'),
};

/** The requirement (and reading) of a rule; throws for a rule the table does not know, so a new rule cannot go unmapped. */
export function requirementOfRule(rule: string, variant?: string): { requirement: string; reading?: Reading } {
  const entry = RULE_REQUIREMENTS[rule];
  if (!entry)
    throw Object.assign(new Error(`rule ${JSON.stringify(rule)} has no catalog requirement in spec/lint/rule-requirements.ts`), {
      code: 'WFMCK_E_INTERNAL',
    });
  const requirement = (variant !== undefined && entry.variants?.[variant]) || entry.requirement;
  return entry.reading ? { requirement, reading: entry.reading } : { requirement };
}
