// Faults of interfaces.md §2.1, §3 and §4.1-4.2 (capabilities PUT/DELETE).
import { on } from './rewrite.ts';
import type { FaultDefinition } from './types.ts';

const CAPABILITIES = /^\/api\/v1\/(clients\/[^/]+\/)?capabilities\//;

export const faults: FaultDefinition[] = [
  {
    id: 'CAP-PUT-201',
    service: 'wfm',
    breaks: ['CAP-PUT-201'],
    description: 'answers 200 instead of 201 when PUT creates a capabilities document',
    rewrite: on('PUT', CAPABILITIES, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)),
  },
];
