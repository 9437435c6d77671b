// One onboarding recorded against the reference WFM, replayed to any number of devices without a socket: the
// Certificate API answer (P2), the onboarding answer with a fresh clientId each time (§2.3), the capabilities answer.
import { randomUUID } from 'node:crypto';
import { httpResponse } from '../simulators/transport/response.ts';
import type { HttpResponse, RequestOptions, Transport } from '../simulators/transport/types.ts';

export interface Recording {
  transport: Transport;
  /** Answers seen so far, by method (GET certificate, POST onboarding, PUT capabilities). */
  answers: Map<string, HttpResponse>;
}

/** Passes every request to `inner` and keeps the last answer per method. */
export function recording(inner: Transport): Recording {
  const answers = new Map<string, HttpResponse>();
  return {
    answers,
    transport: {
      request: async (opts: RequestOptions) => {
        const response = await inner.request(opts);
        answers.set(opts.method.toUpperCase(), response);
        return response;
      },
      close: () => inner.close(),
    },
  };
}

/** Answers the start of a device from a recording; anything the recording does not hold is an error. */
export function replay(answers: Map<string, HttpResponse>): Transport {
  const onboarding = answers.get('POST');
  if (!answers.get('GET') || !answers.get('PUT') || onboarding?.status !== 201)
    throw new Error('bench: the recording holds no complete onboarding');
  const encoder = new TextEncoder();
  return {
    request: async (opts) => {
      const method = opts.method.toUpperCase();
      if (method === 'POST')
        return httpResponse(201, onboarding.headers, encoder.encode(JSON.stringify({ clientId: randomUUID() })), onboarding.exchange);
      const answer = answers.get(method);
      if (!answer) throw new Error(`bench: no recorded answer for ${method} ${opts.url}`);
      return answer;
    },
    close: async () => undefined,
  };
}
