// P10's key algorithms on their own: the option tables name them without loading svid-leaf.ts's certificate parser.

/** P10 key algorithms: P-256 is mandatory to implement; the others are optional (`RSA-3072` = RSA of 3072 bits or more). */
export const SVID_KEY_ALGORITHMS = ['P-256', 'P-384', 'Ed25519', 'RSA-3072'] as const;
export type SvidKeyAlgorithm = (typeof SVID_KEY_ALGORITHMS)[number];
