// The hook of judging mode (device persona): what a client sent (clientExchanges), from the WFM's recorder.
import type { Hook } from './admin.ts';
import type { ExchangeRecorder } from './wfm/recorder.ts';
import type { WfmStateView } from './wfm/state-view.ts';

export function judgingHooks(recorder: ExchangeRecorder, state: WfmStateView): Record<string, Hook> {
  return {
    async clientExchanges(input) {
      const who = input['who'];
      if (typeof who !== 'string' || who === '') throw new Error('clientExchanges: who (a keyid or SPIFFE ID) is required');
      const afterSeq = typeof input['afterSeq'] === 'number' ? input['afterSeq'] : 0;
      const client = state.clients().find((c) => c.keyId === who);
      return { ...(client && { clientId: client.clientId }), exchanges: recorder.of(who, afterSeq) };
    },
  };
}
