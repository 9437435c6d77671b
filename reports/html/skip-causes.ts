// How the report names each typed skip cause (run/contract/outcomes.ts), in the chips and on each skipped row.
import type { SkipCause } from '../../run/contract/outcomes.ts';

export const SKIP_CAUSE_TEXT: Record<SkipCause, string> = {
  disabled: 'need a hook or setting',
  unsupported: 'unsupported by the target',
  'other-persona': "another persona's",
  'other-edition': "another edition's",
  'not-claimed': 'not claimed',
  'no-client': 'no client came',
  interrupted: 'interrupted',
};
