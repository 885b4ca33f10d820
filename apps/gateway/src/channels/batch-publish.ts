/**
 * `POST /v1/messages/batch`: up to 100 messages for one or many channels in one request.
 * Guarantees:
 * - one result per message, in request order: `{id, seq, timestamp}` (committed before the
 *   answer), `{id, ephemeral: true}`, or `{error: {code, reason}}` for a message that was not
 *   published; one refused message never fails another;
 * - each message passes the same checks as a single publish (on the realtime edge: access to
 *   its channel, decided once per channel of the batch; content size and namespace) and counts
 *   once against the per-message rate limits: messages past a limit get `rate_limited`, those
 *   before it are published;
 * - messages for the same channel get seqs in request order: every command leaves in request
 *   order in the same turn, so each partition's owner receives them in one request, in order
 *   (owner-batcher.ts);
 * - idempotency keys work per message, as on the single route.
 */
import { ServiceError } from '@rtm/errors';
import type { PublishResult } from '@rtm/schemas';
import type { GatewayDeps } from '../deps.ts';
import { observePublish, preparePublish, sendCommand, type PublishFields } from './owner-client.ts';

export interface BatchItem extends PublishFields {
  channelId: string;
  /** Control plane only: the sender shown to clients (default "server"). */
  senderId?: string;
}

export type BatchResult =
  | { id: string; seq: number; timestamp: number }
  | { id: string; ephemeral: true }
  | { error: { code: string; reason?: string } };

export interface BatchCaller {
  environmentId: string;
  kind: 'server' | 'user';
  /** The token's user on the realtime edge; undefined on the control plane. */
  user?: { id: string; anon: boolean };
  /** Throws the ServiceError that refuses publishing to `channelId` (realtime edge). */
  authorize?: (channelId: string) => Promise<unknown>;
}

export async function publishBatch(deps: GatewayDeps, caller: BatchCaller, items: readonly BatchItem[]): Promise<BatchResult[]> {
  const results: (BatchResult | undefined)[] = new Array(items.length);
  const refuse = (index: number, error: unknown) => {
    if (!(error instanceof ServiceError)) deps.log.error({ err: error, channelId: items[index]!.channelId }, 'a message of a batch publish failed');
    results[index] = { error: errorOf(error) };
  };

  // 1. access, once per channel of the batch
  const access = new Map<string, Promise<unknown>>();
  if (caller.authorize) {
    for (const item of items) if (!access.has(item.channelId)) access.set(item.channelId, caller.authorize(item.channelId));
  }
  // 2. each message's command (size, namespace), all at once
  const prepared = await Promise.allSettled(
    items.map(async (item) => {
      await access.get(item.channelId);
      const sender = caller.user ?? { id: item.senderId ?? 'server', anon: false };
      return preparePublish(deps, caller.environmentId, item.channelId, item, caller.kind, sender);
    }),
  );
  // 3. the rate limits, message by message in request order
  for (const [index, outcome] of prepared.entries()) {
    if (outcome.status === 'rejected') {
      refuse(index, outcome.reason);
      continue;
    }
    const refused = await deps.limits.admitMessage(caller.environmentId, caller.user?.id, items[index]!.mentions?.length ?? 0);
    if (refused) refuse(index, new ServiceError('rate_limited', `over the ${refused} limit`));
  }
  // 4. every admitted command leaves in this turn, in request order; all answers awaited
  const sends: Promise<void>[] = [];
  for (const [index, outcome] of prepared.entries()) {
    if (outcome.status === 'rejected' || results[index] !== undefined) continue;
    const send = observePublish(deps, caller.kind, sendCommand(deps, outcome.value)).then(
      (result) => void (results[index] = resultOf(result)),
      (error: unknown) => refuse(index, error),
    );
    sends.push(send);
  }
  await Promise.all(sends);
  return results as BatchResult[];
}

function resultOf(result: PublishResult): BatchResult {
  return result.ephemeral ? { id: result.id, ephemeral: true } : { id: result.id, seq: result.seq, timestamp: result.timestamp };
}

function errorOf(error: unknown): { code: string; reason?: string } {
  if (error instanceof ServiceError) return error.reason === undefined ? { code: error.code } : { code: error.code, reason: error.reason };
  return { code: 'internal' };
}
