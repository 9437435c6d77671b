// The judging recorder attributes a request to a client by what it proves (SPIFFE ID, signature keyid), and an
// unsigned request to the client whose connection carried it: a connection, not an address and port the OS reuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { ExchangeRecorder } from '../../reference/wfm/recorder.ts';

const socket = (port: number) => ({ remoteAddress: '127.0.0.1', remotePort: port });
const request = (s: ReturnType<typeof socket>, target: string) =>
  ({ url: target, method: 'GET', headers: {}, socket: s }) as unknown as IncomingMessage;

test("an unsigned request joins the client of its connection; a later connection from the same port is another client's", () => {
  const recorder = new ExchangeRecorder();
  const first = socket(40000);
  recorder.recordAnswer(request(first, '/api/v1/deployments'), { status: 200 }, undefined, 'spiffe://td/p/client/a');
  recorder.recordAnswer(request(first, '/unsigned-by-a'), { status: 401 });
  // Client a's connection closed; the OS gives its port to client b.
  const reused = socket(40000);
  recorder.recordAnswer(request(reused, '/unsigned-by-b'), { status: 401 });
  recorder.recordAnswer(request(reused, '/api/v1/deployments'), { status: 200 }, undefined, 'spiffe://td/p/client/b');
  assert.deepEqual(
    recorder.of('spiffe://td/p/client/a').map((x) => x.target),
    ['/api/v1/deployments', '/unsigned-by-a'],
  );
  assert.deepEqual(
    recorder.of('spiffe://td/p/client/b').map((x) => x.target),
    ['/unsigned-by-b', '/api/v1/deployments'],
  );
});
