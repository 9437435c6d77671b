// Faults of §2.4, §4.4, P7 (deployment status reports). Behaviour-level faults have their seam in
// reference/wfm/status.ts or status-faults.ts, found by the fault id.
import { on } from './rewrite.ts';
import type { FaultDefinition } from './types.ts';

const STATUS = /^\/api\/v1\/deployments\/[^/]+\/status$/;

const seam = (id: string, breaks: string[], description: string): FaultDefinition => ({ id, service: 'wfm', breaks, description });

export const faults: FaultDefinition[] = [
  {
    id: 'STATUS-POST-201',
    service: 'wfm',
    breaks: ['STATUS-POST-201'],
    description: 'the first report for a deployment answers 200 instead of 201',
    rewrite: on('POST', STATUS, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)),
  },
  {
    id: 'STATUS-POST-200',
    service: 'wfm',
    breaks: ['STATUS-POST-200'],
    description: 'every accepted status report answers 201, updates included',
    rewrite: on('POST', STATUS, (a) => (a.status === 200 ? { ...a, status: 201 } : undefined)),
  },
  // The first report of the checks is every component pending, whose state is its first component's: only updates meet it.
  seam('STATUS-POST-200:precedence', ['STATUS-POST-200'], 'refuses (422) a report whose status.state is not the state of its first component'),
  {
    id: 'STATUS-POST-400',
    service: 'wfm',
    breaks: ['STATUS-POST-400', 'ERR-STATUS-400', 'ERR-NOT-JSON-400'],
    description: 'a status body that is not JSON answers 422 instead of 400',
    rewrite: on('POST', STATUS, (a) => (a.status === 400 && /not JSON/.test(a.body.toString('utf8')) ? { ...a, status: 422 } : undefined)),
  },
  seam('ERR-SCHEMA-INVALID-400-OR-422:status', ['ERR-SCHEMA-INVALID-400-OR-422'], 'never checks the report schema: a report without components crashes (500)'),
  seam('STATUS-POST-422', ['STATUS-POST-422', 'ERR-STATUS-422'], 'accepts a report with a component of the deployment missing'),
  seam('STATUS-POST-422:extra', ['STATUS-POST-422', 'ERR-STATUS-422'], 'accepts a report with a component the deployment does not define'),
  seam('STATUS-POST-422:duplicate', ['STATUS-POST-422', 'ERR-STATUS-422'], 'accepts a report that lists one component twice'),
  seam('STATUS-POST-422:unknown-deployment', ['STATUS-POST-422'], 'accepts (201) a report for a deploymentId it never assigned'),
  seam('STATUS-POST-403', ['STATUS-POST-403', 'ERR-STATUS-403', 'AUTH-RETIRED-CLIENT-403'], 'accepts status reports of a retired client'),
  seam('STATUS-OBJECT', ['STATUS-OBJECT'], 'reads status as a list and refuses (400) the one-object shape'),
  seam('STATUS-ERROR-ABSENT-ACCEPTED', ['STATUS-ERROR-ABSENT-ACCEPTED'], 'refuses (422) a failed report that carries no error'),
  seam('STATUS-ERROR-EMPTY-ACCEPTED', ['STATUS-ERROR-EMPTY-ACCEPTED'], 'refuses (422) an error of three empty strings'),
  seam('STATUS-ERROR-CODES-IMPL', ['STATUS-ERROR-CODES-IMPL', 'STATUS-OBJECT'], 'refuses (422) error codes other than the reserved ones'),
  seam('STATUS-RESERVED-ACCEPTED', ['STATUS-RESERVED-ACCEPTED'], 'refuses (422) a reserved code whose source is the gateway, not a component'),
  seam('STATUS-EXTRA-FIELDS-ACCEPTED', ['STATUS-EXTRA-FIELDS-ACCEPTED'], 'refuses (400) a report carrying apiVersion and kind'),
  seam('AMV-OLDER-ACCEPTED', ['AMV-OLDER-ACCEPTED'], 'refuses (422) a report whose adoptedManifestVersion is older than the latest manifest'),
];
