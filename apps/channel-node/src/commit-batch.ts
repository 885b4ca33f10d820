/**
 * One group commit: every command a partition actor took from its mailbox, written in ONE
 * transaction. Guarantees:
 * - seq: each channel advances from the last_seq this writer read, through a fenced
 *   `update … where last_seq = expected`; if another writer moved it, the whole batch rolls
 *   back (FenceError) and nothing is half-written, so seqs never repeat and never skip;
 * - idempotency: a key seen on the channel within 24 h returns the first result and writes
 *   nothing; a key repeated inside one batch gets the earlier command's result;
 * - changes (change-writer.ts): each retraction, edit and reaction summary takes the channel's
 *   next seq after the batch's publishes, fenced like them; a second retraction of a message
 *   changes nothing and emits nothing; an erasure job's retraction happens, and counts in the
 *   job's `retracted`, only while the job still carries the runner's lease token, checked and
 *   counted in this transaction, which also cancels the message's undelivered deliveries and
 *   redacts their bodies;
 * - webhook deliveries and mention notifications commit (or roll back) with the messages; a
 *   mention is stored only for a user who may read the channel then, within their cap. A
 *   publish's deliveries get no job: their ids are in the outcome (`deliveries`), published
 *   after commit as a notice that wakes a dispatcher (docs/webhooks.md);
 * - deletion: while a channel's deletion runs (`channels.deleting_until` in the future) the fence
 *   does not advance it, so no message of it commits: a cached writer fails the fence and reloads,
 *   and a loaded channel that is being deleted gets its persisted publishes refused.
 * Nothing here publishes: the actor publishes the returned frames only after commit.
 */
import type { PoolClient } from '@rtm/db';
import { newId } from '@rtm/db';
import { loggedDeliveries, enqueueWebhookEvents, webhookBody } from '@rtm/webhooks';
import {
  CHANNEL_DELETING_REPLY,
  channelKey,
  keyOf,
  planBatch,
  quotaReply,
  type BatchOutcome,
  type QuotaAllowance,
  type ChannelState,
  type NodeCommand,
  type PublishCommand,
} from './batch-plan.ts';
import { edit, finishChanges, react, retract, type ChangeContext } from './change-writer.ts';
import { FENCE_STATE, LOAD_CHANNELS_SQL, SEEN_KEYS_SQL, WEBHOOK_STATE, writeStatement } from './commit-sql.ts';
import { QUOTA_ADD_SQL, QUOTA_STATE, type QuotaCounts } from './quota-sql.ts';
import { QuotaError } from './quota-allowance.ts';
import type { WebhookBelief } from './webhook-belief.ts';

export { channelKey, type BatchOutcome, type ChannelState, type PublishCommand } from './batch-plan.ts';
export { WebhookBelief } from './webhook-belief.ts';

/** Another writer advanced a channel since we read it: roll back, reload, retry. */
export class FenceError extends Error {
  override name = 'FenceError';
}

/**
 * Whether the batch is written by ONE statement, without begin/commit: every channel is in the
 * cache (nothing to create or load) and nothing changes (a change reads and updates rows after
 * the inserts). A single statement is atomic on its own, so this saves two round
 * trips; idempotency keys, when present, are read before it (a read needs no transaction: the
 * fence guards what is written).
 */
export function writesInOneStatement(commands: readonly NodeCommand[], cache: Map<string, ChannelState>): boolean {
  return commands.every((c) => c.op === 'publish' && cache.has(channelKey(c.environmentId, c.channelId)));
}

/** A batch of ephemeral publishes on cached channels needs no transaction at all. */
export function ephemeralOnly(commands: readonly NodeCommand[], cache: Map<string, ChannelState>): boolean {
  return commands.every((c) => c.op === 'publish' && c.ephemeral && cache.has(channelKey(c.environmentId, c.channelId)));
}

/** Ephemeral frames only (see ephemeralOnly): no I/O. */
export function ephemeralBatch(commands: readonly PublishCommand[], cache: Map<string, ChannelState>): BatchOutcome {
  return planBatch(commands, cache, new Map(), Date.now(), newId).outcome;
}

/**
 * The channels a batch touches: `states`, copies of those cached (the cache itself is written only
 * after commit); `toLoad`, the others in first-use order, each to be created as well when a
 * persisted publish of the batch needs its row (an ephemeral publish or a change only reads).
 */
export function channelsOf(
  commands: readonly NodeCommand[],
  cache: ReadonlyMap<string, ChannelState>,
): { states: Map<string, ChannelState>; toLoad: { environmentId: string; channelId: string; create: boolean }[] } {
  const needed = new Map<string, { environmentId: string; channelId: string; create: boolean }>();
  for (const c of commands) {
    const key = channelKey(c.environmentId, c.channelId);
    const create = c.op === 'publish' && !c.ephemeral;
    const entry = needed.get(key);
    if (entry) entry.create ||= create;
    else needed.set(key, { environmentId: c.environmentId, channelId: c.channelId, create });
  }
  const states = new Map<string, ChannelState>();
  const toLoad: { environmentId: string; channelId: string; create: boolean }[] = [];
  for (const [key, channel] of needed) {
    const cached = cache.get(key);
    if (cached) states.set(key, { ...cached });
    else toLoad.push(channel);
  }
  return { states, toLoad };
}

/**
 * Writes the batch on `client`: inside a transaction the caller opened, or, when
 * `writesInOneStatement` says so, as one statement on its own. `cache` is read, never written:
 * the caller applies `states` only after commit. A channel that moved under this writer, or a
 * webhook the belief did not know of, fails the whole write with a FenceError (after dropping
 * the belief): reload and retry. `pushLeaseMs`: a publish's deliveries are committed leased to
 * their webhook partition's owner for that long (0: unleased; push-notice.ts).
 */
export async function writeBatch(
  client: PoolClient,
  commands: readonly NodeCommand[],
  cache: Map<string, ChannelState>,
  webhooks: WebhookBelief,
  pushLeaseMs = 0,
  allowance: ReadonlyMap<string, QuotaAllowance> = new Map(),
): Promise<BatchOutcome> {
  const now = Date.now();

  // 1. channel rows: created on first persisted publish, loaded when not cached
  const { states, toLoad } = channelsOf(commands, cache);
  const deleting = new Set<string>();
  if (toLoad.length > 0) {
    // one round trip: create the rows a persisted publish needs, read every missing one
    const creating = toLoad.filter((v) => v.create);
    const { rows } = await client.query<{ environment_id: string; id: string; pk: number; last_seq: number; deleting: boolean }>(LOAD_CHANNELS_SQL, [
      creating.map((v) => v.environmentId),
      creating.map((v) => v.channelId),
      toLoad.map((v) => v.environmentId),
      toLoad.map((v) => v.channelId),
    ]);
    for (const row of rows) {
      states.set(channelKey(row.environment_id, row.id), { pk: row.pk, lastSeq: row.last_seq });
      if (row.deleting) deleting.add(channelKey(row.environment_id, row.id));
    }
  }

  // 2. idempotency keys already used within 24 h
  const keyed = commands.filter((c): c is PublishCommand => c.op === 'publish' && !c.ephemeral && c.idempotencyKey !== undefined);
  const seen = new Map<string, { id: string; seq: number; timestamp: number }>();
  if (keyed.length > 0) {
    const pks = keyed.map((c) => states.get(channelKey(c.environmentId, c.channelId))!.pk);
    const { rows } = await client.query<{ channel_pk: number; key: string; message_id: string; seq: number; ts: number }>(SEEN_KEYS_SQL, [
      pks,
      keyed.map((c) => c.idempotencyKey!),
    ]);
    for (const row of rows) seen.set(keyOf(row.channel_pk, row.key), { id: row.message_id, seq: row.seq, timestamp: row.ts });
  }

  // 3. publishes, in command order (pure: batch-plan.ts)
  const plan = planBatch(commands, states, seen, now, newId, deleting, allowance);
  const outcome = plan.outcome;
  const { notifications, events } = plan;

  // 4. everything in ONE statement (WRITE_SQL): round trips are what a commit costs
  const environments = [...new Set(commands.map((c) => c.environmentId))];
  const hookless = environments.filter((e) => webhooks.hookless(e));
  const hooked = events.filter((e) => !webhooks.hookless(e.environmentId));
  const mentions = notifications.length > 0;
  // each event's body, made once: the statement writes it, the notice carries it
  const bodies = hooked.map(webhookBody);
  const written = await client
    .query<{ hooked: string[]; pushed: unknown[][]; notified?: string[]; readers?: number; quotas?: QuotaCounts }>(
      writeStatement(plan, { now, environments, hooked, bodies, hookless, pushLeaseMs }),
    )
    .catch((error: unknown) => {
      const state = (error as { code?: unknown }).code;
      if (state === FENCE_STATE) throw new FenceError('a channel moved under this writer');
      if (state === QUOTA_STATE) throw new QuotaError('a monthly message quota would be exceeded');
      if (state === WEBHOOK_STATE) {
        webhooks.forget(hookless);
        throw new FenceError('an environment has a webhook this writer did not know of');
      }
      throw error;
    });
  const answer = written.rows[0]!;
  webhooks.learn(environments, answer.hooked);
  if (answer.quotas?.length) outcome.quotaCounts = answer.quotas;
  // no job for these: the committer publishes them after commit (a notice to the dispatchers,
  // carrying each row of the delivery log: push-notice.ts)
  if (answer.pushed.length > 0) {
    outcome.webhookEvents = answer.pushed.map((row) => row[1] as string);
    const byEvent = new Map(hooked.map((event, i) => [event.eventId, bodies[i]!]));
    outcome.deliveries = loggedDeliveries(answer.pushed, (eventId) => byEvent.get(eventId));
  }
  if (mentions) {
    // publish only what was stored; the rest was dropped (not a reader, or over the cap)
    const stored = new Set(answer.notified);
    outcome.notifications = outcome.notifications.filter((n) => stored.has(n.frame.id));
    outcome.mentionsDropped = { unreadable: notifications.length - answer.readers!, overCap: answer.readers! - stored.size };
  }

  // 5. changes (retractions, edits, reactions), after the inserts so a message published earlier
  // in this batch can be changed; each takes the channel's next seq, after the publishes'
  const published = events.length;
  const ctx: ChangeContext = { client, outcome, events, before: new Map(), now };
  const edits = new Map<string, number>();
  for (const [index, c] of commands.entries()) {
    if (c.op === 'publish') continue;
    const key = channelKey(c.environmentId, c.channelId);
    if (deleting.has(key)) {
      outcome.replies[index] = c.op === 'reactions' ? { ok: true, result: { items: c.items.map(() => CHANNEL_DELETING_REPLY) } } : CHANNEL_DELETING_REPLY;
      continue;
    }
    const state = outcome.states.get(key);
    if (c.op === 'retract') outcome.replies[index] = await retract(ctx, index, c, state);
    else if (c.op === 'edit') {
      // an edit counts as a message against the monthly quota, as it does against the publish rate
      const quota = plan.allowance.get(c.environmentId);
      if (quota && quota.left <= 0) {
        outcome.replies[index] = quotaReply(quota);
        continue;
      }
      const reply = await edit(ctx, index, c, state);
      if (reply.ok) {
        if (quota) quota.left--;
        edits.set(c.environmentId, (edits.get(c.environmentId) ?? 0) + 1);
      }
      outcome.replies[index] = reply;
    } else if (c.op === 'reactions') outcome.replies[index] = await react(ctx, index, c, state);
    else {
      // a reaction on its own (the actor gathers them into groups: reaction-gate.ts)
      const { op: _, ...rest } = c;
      const group = await react(ctx, index, { ...rest, op: 'reactions', items: [c] }, state);
      outcome.replies[index] = group.result.items[0]!;
    }
  }
  if (!(await finishChanges(ctx, outcome.states))) throw new FenceError('a channel moved under this writer');
  if (edits.size > 0) await countEdits(client, edits, outcome);

  // the publishes' deliveries are recorded by the statement above, the changes' here (their
  // batch is in a transaction; the join skips environments without a webhook)
  if (events.length > published) await enqueueWebhookEvents(client, events.slice(published), (outcome.webhookEvents ??= []));
  return outcome;
}

/** The batch's edits added to their environments' monthly counts (a QuotaError when one would pass its limit). */
async function countEdits(client: PoolClient, edits: Map<string, number>, outcome: BatchOutcome): Promise<void> {
  const { rows } = await client
    .query<{ quotas: QuotaCounts }>({ name: 'rtm_count_edits', text: QUOTA_ADD_SQL, values: [[...edits.keys()], [...edits.values()]] })
    .catch((error: unknown) => {
      if ((error as { code?: unknown }).code === QUOTA_STATE) throw new QuotaError('a monthly message quota would be exceeded');
      throw error;
    });
  // the later count of an environment is the one to keep
  const counts = new Map((outcome.quotaCounts ?? []).map((entry) => [entry[0], entry]));
  for (const entry of rows[0]!.quotas) counts.set(entry[0], entry);
  if (counts.size > 0) outcome.quotaCounts = [...counts.values()];
}
