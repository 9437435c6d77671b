// §2.7 application description (the package's YAML layer), as parsed into JSON.
import { DRAFT, type JsonSchema } from './common.ts';

// Only these fields are fixed by §2.7; everything else is "not shown" and stays open.
export const applicationDescriptionSchema: JsonSchema = {
  $schema: DRAFT,
  title: 'ApplicationDescription',
  type: 'object',
  required: ['metadata'],
  properties: {
    metadata: {
      type: 'object',
      required: ['name', 'version'],
      properties: {
        name: { type: 'string', minLength: 1 },
        // Equality with the OCI tag (§9) is a rule.
        version: { type: 'string', minLength: 1 },
        catalog: {
          type: 'object',
          properties: {
            application: {
              type: 'object',
              // File paths of resource layers: matching them to layer titles is a rule.
              properties: {
                icon: { type: 'string' },
                releaseNotes: { type: 'string' },
                descriptionFile: { type: 'string' },
                licenseFile: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
};
