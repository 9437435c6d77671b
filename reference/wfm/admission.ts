// P10 (miaf): the WFM's local policy admits clients by SPIFFE ID (hook admitClient); the client id is its last segment.
import { identityOf } from '../../spec/spiffe-id.ts';
import type { WfmContext } from './context.ts';
import { newClient } from './manifest.ts';
import type { Client } from './store.ts';

/** The client of `spiffeId`, admitted now unless it already was (admission is idempotent). Throws on a non-client ID. */
export async function admitSpiffeId(ctx: Pick<WfmContext, 'store' | 'profile' | 'decisions'>, spiffeId: string): Promise<Client> {
  const known = ctx.store.bySpiffeId.get(spiffeId);
  if (known) return known;
  const who = identityOf(spiffeId);
  if (who?.role !== 'client')
    throw new Error(`admitClient: ${spiffeId} is not a client SPIFFE ID (spiffe://<td>/<vendor>/wfm/<wfm-id>/client/<client-id>)`);
  if (ctx.store.client(who.clientId)) throw new Error(`admitClient: client id ${who.clientId} is already another SPIFFE ID's`);
  const client = await newClient(ctx, { clientId: who.clientId, keyId: spiffeId, spiffeId });
  const raced = ctx.store.bySpiffeId.get(spiffeId);
  if (raced) return raced;
  ctx.store.add(client);
  return client;
}
