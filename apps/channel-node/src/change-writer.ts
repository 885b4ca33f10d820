/**
 * Messages that change, written in the batch's transaction after its publishes (so a message
 * published earlier in the same batch can be changed): a retraction, an edit, a group of reactions
 * with the summary it leaves. Each change that changes something takes the next seq of the
 * channel's sequence (its `eventSeq`, recorded in `message_events`), so the frames of a batch go
 * out in the order of the channel's sequence: the publishes', then the changes' in command order.
 * `finishChanges` moves the channel's last seq past them, fenced like the publishes.
 *
 * A change of a message addressed to some users (`to`) carries `to` and `sender` on its frame, so
 * the gateway's feed shows it to the same audience and sends everyone else a `skip`.
 */
import { messageEventIds, newId, type PoolClient } from '@rtm/db';
import { envelopeTextOfRow, type MessageRow } from '@rtm/channels';
import { redactMessageDeliveries, withdrawnEntries, type WebhookEventInput } from '@rtm/webhooks';
import { MAX_REACTION_TYPES, MAX_REACTIONS_PER_USER, type CommandReply, type EditCommand } from '@rtm/schemas';
import type { BatchOutcome, ChannelState, GroupReply, ReactionGroup, RetractCommand } from './batch-plan.ts';
import { ERASURE_COUNT_SQL } from './commit-sql.ts';
import {
  CHANGE_FENCE_SQL,
  CHANGE_READ_SQL,
  EDIT_SQL,
  EVENT_SQL,
  REACTIONS_READ_SQL,
  REACTIONS_WRITE_SQL,
  RETRACT_CHANGE_SQL,
  SUMMARY_SQL,
} from './change-sql.ts';

/** A message's row as CHANGE_READ_SQL reads it: history's columns, and a retraction's seq. */
interface ChangedRow extends MessageRow {
  /** A retracted message's retraction seq (null for one retracted before changes had seqs). */
  retracted_at_seq: number | null;
}

const NOT_FOUND: CommandReply = { ok: false, code: 'not_found', reason: 'no such message in this channel' };

/** What the changes of one batch share: the channels' states (advanced here), the frames and events they add to. */
export interface ChangeContext {
  client: PoolClient;
  outcome: BatchOutcome;
  events: WebhookEventInput[];
  /** Each channel's last seq before the batch's changes (after its publishes), by pk: the fence's expectation. */
  before: Map<number, number>;
  now: number;
}

/** The next seq of the channel's sequence for a change of message `seq`, recorded. */
async function takePosition(ctx: ChangeContext, state: ChannelState, seq: number): Promise<number> {
  if (!ctx.before.has(state.pk)) ctx.before.set(state.pk, state.lastSeq);
  const eventSeq = ++state.lastSeq;
  await ctx.client.query(EVENT_SQL, [state.pk, eventSeq, seq]);
  return eventSeq;
}

/** Moves every changed channel's last seq past its changes; false when another writer moved one (roll back). */
export async function finishChanges(ctx: ChangeContext, states: Map<string, ChannelState>): Promise<boolean> {
  for (const state of states.values()) {
    const expected = ctx.before.get(state.pk);
    if (expected === undefined || expected === state.lastSeq) continue;
    const moved = await ctx.client.query(CHANGE_FENCE_SQL, [state.pk, expected, state.lastSeq]);
    if (moved.rowCount === 0) return false;
  }
  return true;
}

async function readRow(ctx: ChangeContext, state: ChannelState, messageId: string): Promise<ChangedRow | undefined> {
  const { rows } = await ctx.client.query<ChangedRow>(CHANGE_READ_SQL, [state.pk, messageId]);
  return rows[0];
}

/** The envelope's text of a row as it is now (after `patch`). */
const envelopeText = (row: ChangedRow, patch: Partial<ChangedRow> = {}): string => envelopeTextOfRow({ ...row, ...patch });

/** A change frame's head: `{"op":…,"eventSeq":…,` then the rest of `body` (a JSON object's text). */
const changeFrame = (op: string, eventSeq: number, body: string): string => `{"op":${JSON.stringify(op)},"eventSeq":${eventSeq},${body.slice(1)}`;

/** The audience fields of an addressed message's change frame (the feed filters by them). */
function audience(row: ChangedRow): string {
  return row.to ? `,"to":${JSON.stringify(row.to)},"sender":${JSON.stringify({ id: row.sender_id, anon: row.sender_anon })}` : '';
}

function pushFrame(ctx: ChangeContext, index: number, c: { environmentId: string; channelId: string }, text: string): void {
  ctx.outcome.frames.push({ index, environmentId: c.environmentId, channelId: c.channelId, bytes: Buffer.from(text, 'utf8') });
}

export async function retract(ctx: ChangeContext, index: number, c: RetractCommand, state: ChannelState | undefined): Promise<CommandReply> {
  if (!state) return NOT_FOUND;
  const row = await readRow(ctx, state, c.messageId);
  if (!row) return NOT_FOUND;
  if (c.onlySender !== undefined && (row.sender_id !== c.onlySender || row.kind !== 'user')) {
    return { ok: false, code: 'forbidden', reason: 'only the sender may retract this message' };
  }
  if (row.retracted) {
    const eventSeq = row.retracted_at_seq === null ? undefined : Number(row.retracted_at_seq);
    return { ok: true, result: { id: row.id, seq: row.seq, retracted: true, ...(eventSeq !== undefined && { eventSeq }) } };
  }
  if (c.erasure) {
    // the lease fence: counted here, with the retraction, or neither (the row lock on the job
    // orders this against a claim that replaces the token)
    const counted = await ctx.client.query(ERASURE_COUNT_SQL, [c.erasure.jobId, c.environmentId, c.erasure.leaseToken]);
    if (counted.rowCount === 0) return { ok: false, code: 'unavailable', reason: "the erasure job's lease was taken over; nothing retracted" };
  }
  await ctx.client.query(RETRACT_CHANGE_SQL, [state.pk, row.seq]);
  const eventSeq = await takePosition(ctx, state, row.seq);
  // its content leaves the webhook ledger in this transaction too: deliveries not yet delivered
  // are cancelled, every stored body redacted; a pushed first attempt its owner still holds is
  // withdrawn by the notice after commit (libs/webhooks redaction.ts)
  const withdrawn = await redactMessageDeliveries(ctx.client, c.environmentId, messageEventIds(row.id, row.version));
  if (withdrawn.length > 0) (ctx.outcome.deliveries ??= []).push(...withdrawnEntries(withdrawn));
  const frame: Record<string, unknown> = { op: 'retract', id: row.id, seq: row.seq, eventSeq };
  if (c.reason !== undefined) frame.reason = c.reason;
  if (row.to) {
    frame.to = row.to;
    frame.sender = { id: row.sender_id, anon: row.sender_anon };
  }
  pushFrame(ctx, index, c, JSON.stringify(frame));
  ctx.events.push({
    environmentId: c.environmentId,
    channelId: c.channelId,
    eventId: `retract_${row.id}`,
    type: 'message.retracted',
    timestamp: ctx.now,
    data: envelopeText(row, { retracted: true, content: null, reactions: null }),
  });
  ctx.outcome.logs.push({
    index,
    environmentId: c.environmentId,
    event: 'message.retracted',
    data: { channelId: c.channelId, messageId: row.id, seq: row.seq },
  });
  return { ok: true, result: { id: row.id, seq: row.seq, retracted: true, eventSeq } };
}

export async function edit(ctx: ChangeContext, index: number, c: EditCommand, state: ChannelState | undefined): Promise<CommandReply> {
  if (!state) return NOT_FOUND;
  const row = await readRow(ctx, state, c.messageId);
  if (!row) return NOT_FOUND;
  if (c.onlySender !== undefined && (row.sender_id !== c.onlySender || row.kind !== 'user')) {
    return { ok: false, code: 'forbidden', reason: 'only the sender may edit this message' };
  }
  if (row.retracted) return { ok: false, code: 'conflict', reason: 'the message was retracted; it cannot be edited' };
  const { rows } = await ctx.client.query<{ version: number }>(EDIT_SQL, [state.pk, row.seq, c.content, ctx.now, c.editor]);
  const version = rows[0]!.version;
  const eventSeq = await takePosition(ctx, state, row.seq);
  const envelope = envelopeText(row, { content: c.content, version, updated_at: ctx.now, updated_by: c.editor });
  pushFrame(ctx, index, c, changeFrame('update', eventSeq, envelope));
  ctx.events.push({
    environmentId: c.environmentId,
    channelId: c.channelId,
    // the message's id and version: its time orders it with the message in the ledger, and a
    // retraction finds it to redact (messageEventIds)
    eventId: `${row.id}_v${version}`,
    type: 'message.updated',
    timestamp: ctx.now,
    data: envelope,
  });
  ctx.outcome.logs.push({
    index,
    environmentId: c.environmentId,
    event: 'message.updated',
    data: { channelId: c.channelId, messageId: row.id, seq: row.seq, version },
  });
  return { ok: true, result: { id: row.id, seq: row.seq, version, updatedAt: ctx.now, eventSeq } };
}

/**
 * A group of reactions to one message: each item applied in order (a repeated add or a removal of
 * nothing changes nothing and still answers the state), the caps checked per item, then, when
 * anything changed, one summary: one seq, one `summary` frame, one `message.reactions` event.
 */
export async function react(ctx: ChangeContext, index: number, g: ReactionGroup, state: ChannelState | undefined): Promise<GroupReply> {
  const answer = (items: CommandReply[]): GroupReply => ({ ok: true, result: { items } });
  if (!state) return answer(g.items.map(() => NOT_FOUND));
  const row = await readRow(ctx, state, g.messageId);
  if (!row) return answer(g.items.map(() => NOT_FOUND));
  if (row.retracted) return answer(g.items.map(() => ({ ok: false, code: 'conflict', reason: 'the message was retracted' })));
  const users = [...new Set(g.items.map((item) => item.userId))];
  const { rows } = await ctx.client.query<{ type: string; user_id: string }>(REACTIONS_READ_SQL, [state.pk, row.seq, users]);
  const mine = new Map<string, Set<string>>();
  for (const r of rows) {
    let set = mine.get(r.user_id);
    if (!set) mine.set(r.user_id, (set = new Set()));
    set.add(r.type);
  }
  // the types the message carries are its summary's (rewritten with its reactions in every
  // transaction that changes them), not a count over all of its reactions
  const typesKnown = new Set(row.reactions === null ? [] : Object.keys(JSON.parse(row.reactions) as Record<string, unknown>));
  let typeCount = typesKnown.size;
  const adds = new Map<string, [string, string]>();
  const removes = new Map<string, [string, string]>();
  const items = g.items.map((item): CommandReply => {
    if (item.asReader && row.to && !row.to.includes(item.userId) && row.sender_id !== item.userId) return NOT_FOUND;
    const result = { id: row.id, seq: row.seq, type: item.type };
    let set = mine.get(item.userId);
    if (!set) mine.set(item.userId, (set = new Set()));
    const key = `${item.type}\u0000${item.userId}`;
    if (item.remove) {
      if (set.delete(item.type)) {
        if (adds.delete(key)) return { ok: true, result: { ...result, reacted: false } };
        removes.set(key, [item.type, item.userId]);
      }
      return { ok: true, result: { ...result, reacted: false } };
    }
    if (set.has(item.type)) return { ok: true, result: { ...result, reacted: true } };
    if (set.size >= MAX_REACTIONS_PER_USER) {
      return { ok: false, code: 'conflict', reason: `a user may have at most ${MAX_REACTIONS_PER_USER} reaction types on one message` };
    }
    // a type the message does not carry yet: counted against the message's cap (the count read
    // may include types whose last reaction this group removes: the cap errs on the safe side)
    if (!typesKnown.has(item.type)) {
      if (typeCount >= MAX_REACTION_TYPES) return { ok: false, code: 'conflict', reason: `a message carries at most ${MAX_REACTION_TYPES} reaction types` };
      typesKnown.add(item.type);
      typeCount++;
    }
    set.add(item.type);
    if (!removes.delete(key)) adds.set(key, [item.type, item.userId]);
    return { ok: true, result: { ...result, reacted: true } };
  });
  if (adds.size === 0 && removes.size === 0) return answer(items);
  const added = [...adds.values()];
  const removed = [...removes.values()];
  const { rows: counts } = await ctx.client.query<{ added: number; removed: number }>(REACTIONS_WRITE_SQL, [
    state.pk,
    row.seq,
    added.map(([type]) => type),
    added.map(([, user]) => user),
    removed.map(([type]) => type),
    removed.map(([, user]) => user),
    ctx.now,
  ]);
  if (counts[0]!.added === 0 && counts[0]!.removed === 0) return answer(items);
  const { rows: summary } = await ctx.client.query<{ reactions: string | null }>(SUMMARY_SQL, [state.pk, row.seq]);
  const reactions = summary[0]!.reactions ?? '{}';
  const eventSeq = await takePosition(ctx, state, row.seq);
  const body = `{"id":${JSON.stringify(row.id)},"seq":${row.seq},"reactions":${reactions}}`;
  pushFrame(ctx, index, g, `${changeFrame('summary', eventSeq, body).slice(0, -1)}${audience(row)}}`);
  ctx.events.push({
    environmentId: g.environmentId,
    channelId: g.channelId,
    eventId: newId('rct'),
    type: 'message.reactions',
    timestamp: ctx.now,
    data: body,
  });
  return answer(items);
}
