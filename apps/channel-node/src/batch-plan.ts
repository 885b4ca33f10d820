/**
 * The pure half of a group commit: given the commands of a batch, the channel states read (or
 * cached) for them and the idempotency keys already used, decide every seq, row, frame and reply.
 * No I/O, no clock, no randomness (ids and time are passed in), so the same inputs give the same
 * plan: that is what lets a failed batch be re-planned for any subset of its commands (seqs then
 * start again from the channel's last committed seq, so a retried subset never leaves a gap).
 * Changes (retractions, edits, reactions) are written by change-writer.ts: they read the row they change.
 */
import type { NoticeDelivery, WebhookEventInput } from '@rtm/webhooks';
import { messageEnvelopeBytes, type ChannelCommand, type CommandReply } from '@rtm/schemas';
import { quotaReasonText, type QuotaRefusal } from '@rtm/rules';

export type PublishCommand = Extract<ChannelCommand, { op: 'publish' }>;
export type RetractCommand = Extract<ChannelCommand, { op: 'retract' }>;
export type EditCommand = Extract<ChannelCommand, { op: 'edit' }>;
export type ReactCommand = Extract<ChannelCommand, { op: 'react' }>;

/**
 * The reactions to one message the actor let through together (reaction-gate.ts): applied in
 * order, summarised once. Internal to the channel-node, never on the bus.
 */
export interface ReactionGroup {
  op: 'reactions';
  environmentId: string;
  channelId: string;
  messageId: string;
  items: ReactCommand[];
}

/** The reply of a ReactionGroup: one reply per item, in order. */
export interface GroupReply {
  ok: true;
  result: { items: CommandReply[] };
}

export const isGroupReply = (reply: unknown): reply is GroupReply =>
  typeof reply === 'object' && reply !== null && Array.isArray((reply as { result?: { items?: unknown } }).result?.items);

export type NodeReply = CommandReply | GroupReply;

/** What a partition actor commits: the bus's commands, and the reaction groups it makes of its `react` commands. */
export type NodeCommand = ChannelCommand | ReactionGroup;

/** A reaction group: the heaviest command a transaction carries (it reads, writes and summarises a message's reactions). */
export const isReactionGroup = (command: NodeCommand): command is ReactionGroup => command.op === 'reactions';

export interface ChannelState {
  pk: number;
  lastSeq: number;
}

export const channelKey = (environmentId: string, channelId: string): string => `${environmentId}\u0000${channelId}`;

/** Key of an idempotency key in `seen`. */
export const keyOf = (channelPk: number, key: string): string => `${channelPk}\u0000${key}`;

export interface OutFrame {
  /** Index of the command that produced it. */
  index: number;
  environmentId: string;
  channelId: string;
  /** The frame's JSON text as UTF-8, built once (a message's content copied in as sent), published as it is. */
  bytes: Uint8Array;
}

export interface OutNotification {
  index: number;
  environmentId: string;
  userId: string;
  frame: { op: 'notification'; id: string; type: 'mention'; payload: Record<string, unknown>; timestamp: number };
}

export interface OutLog {
  index: number;
  environmentId: string;
  event: 'message.published' | 'message.retracted' | 'message.updated';
  data: Record<string, unknown>;
}

export interface BatchOutcome {
  /** One per command, in command order; a command that failed alone has an error reply. */
  replies: NodeReply[];
  /** In command order; published after commit. */
  frames: OutFrame[];
  notifications: OutNotification[];
  logs: OutLog[];
  /** Channel states after commit, to refresh the actor's cache. */
  states: Map<string, ChannelState>;
  /** Webhook deliveries the commit recorded without a job: they go out in a notice after commit (push-notice.ts). */
  deliveries?: NoticeDelivery[];
  /** `[environmentId, used, limit]` of each environment with a monthly message quota this commit counted in. */
  quotaCounts?: [string, number, number][];
  /** The environment of each webhook delivery the commit wrote (one per event and receiving endpoint), counted once committed. */
  webhookEvents?: string[];
  /** Mention notifications the commit did not store: not a reader of the channel, or over the recipient's cap. */
  mentionsDropped?: { unreadable: number; overCap: number };
}

export interface MessageRow {
  channel_pk: number;
  seq: number;
  id: string;
  type: string;
  kind: string;
  /** The content's JSON text as sent: the json column stores it unchanged. */
  content: string;
  /** `content` as UTF-8, when at hand: the statement carries these bytes (commit-sql.ts). */
  contentBytes?: Uint8Array;
  sender_id: string;
  sender_anon: boolean;
  to: string[] | null;
  mentions: string[] | null;
  ts: number;
}

export interface KeyRow {
  channel_pk: number;
  key: string;
  message_id: string;
  seq: number;
  ts: number;
}

export interface NotificationRow {
  id: string;
  /** The channel of the message: the commit stores the notification only if the user may read it. */
  channel_pk: number;
  environment_id: string;
  user_id: string;
  payload: string;
}

/**
 * What an environment with a monthly message quota may still store in this commit, learnt after
 * a commit the quota refused (quota-allowance.ts): `left` messages, then `quota_exceeded`.
 */
export interface QuotaAllowance {
  left: number;
  limit: number;
  /** Used this month when read. */
  used: number;
  resetsAt: string;
}

/** The reply of a message past its environment's monthly quota (docs/quotas.md). */
export function quotaReply(allowance: QuotaAllowance): CommandReply {
  const quota: QuotaRefusal = {
    quota: 'monthlyMessages',
    limit: allowance.limit,
    used: Math.max(allowance.used, allowance.limit),
    resetsAt: allowance.resetsAt,
  };
  return { ok: false, code: 'quota_exceeded', reason: quotaReasonText(quota), quota };
}

export interface BatchPlan {
  /** Replies of publishes; changes' slots are left for the writer. */
  outcome: BatchOutcome;
  /** Messages to store by environment: what the commit adds to each one's monthly count (commit-sql.ts). */
  counted: Map<string, number>;
  /** The allowances after the plan's publishes took theirs (an edit takes its own from them). */
  allowance: Map<string, QuotaAllowance>;
  messages: MessageRow[];
  keys: KeyRow[];
  notifications: NotificationRow[];
  events: WebhookEventInput[];
  /** Channels whose last_seq this batch advances: the fence `update … where last_seq = expected`. */
  advanced: { pk: number; expected: number; next: number }[];
}

/** The publish's content as UTF-8: the bytes it arrived as, else its text encoded (once per publish planned). */
const contentBytesOf = (command: PublishCommand): Uint8Array => command.contentBytes ?? Buffer.from(command.content, 'utf8');

/** The envelope's JSON text as UTF-8, the publish's content (`content`, its bytes) copied in as sent. */
export function envelopeOf(command: PublishCommand, content: Uint8Array, id: string, seq: number, timestamp: number, ephemeral: boolean): Uint8Array {
  const { type, kind, sender, to, mentions } = command;
  return messageEnvelopeBytes({ id, seq, type, kind, sender, timestamp, retracted: false, ephemeral, to, mentions }, content);
}

const utf8 = new TextDecoder();

/**
 * A publish's `message.published` event: its data is the frame's text, decoded when first read
 * (only for an environment with a webhook: writeBatch reads no other). A class, not an object
 * literal with a getter: V8 builds such a literal slowly, once per publish.
 */
class PublishedEvent implements WebhookEventInput {
  readonly type = 'message.published';
  readonly environmentId: string;
  readonly channelId: string;
  readonly eventId: string;
  readonly timestamp: number;
  readonly #frame: Uint8Array;
  #data: string | undefined;

  constructor(environmentId: string, channelId: string, eventId: string, timestamp: number, frame: Uint8Array) {
    this.environmentId = environmentId;
    this.channelId = channelId;
    this.eventId = eventId;
    this.timestamp = timestamp;
    this.#frame = frame;
  }

  get data(): string {
    return (this.#data ??= utf8.decode(this.#frame));
  }
}

/** The reply of a persisted publish on a channel whose deletion is running (see channel-deletion.ts in the gateway). */
export const CHANNEL_DELETING_REPLY: CommandReply = {
  ok: false,
  code: 'unavailable',
  reason: 'the channel is being deleted; retry after the deletion (the message then starts the channel anew)',
};

/**
 * The users a publish's `mentions` may notify, each once, in the order given: those who can read
 * the message. A message with `to` is read only by its addressees and its sender, so a mention of
 * anyone else is dropped here; whether the others may read the channel (access, membership, bans)
 * and the per-recipient cap are decided by the commit's statement (commit-sql.ts).
 */
export function mentionCandidates(command: Pick<PublishCommand, 'mentions' | 'to' | 'sender'>): string[] {
  const mentioned = new Set(command.mentions ?? []);
  if (command.to) {
    const audience = new Set([...command.to, command.sender.id]);
    for (const userId of mentioned) if (!audience.has(userId)) mentioned.delete(userId);
  }
  return [...mentioned];
}

/**
 * Plans the publishes of `commands` on top of `states` (every channel a persisted publish needs
 * must be there) and `seen` (idempotency keys used within 24 h, by keyOf). `states` is not
 * modified; the plan's outcome carries the states after commit. A persisted publish on a channel
 * in `deleting` (keys by channelKey) is refused with CHANNEL_DELETING_REPLY and writes nothing;
 * such a channel's state is not in the outcome (not cached: it is read again next time).
 * `allowance` (by environment): a persisted publish past its environment's `left` is refused with
 * `quota_exceeded` and takes no seq; publishes take the allowance in command order.
 */
export function planBatch(
  commands: readonly NodeCommand[],
  states: ReadonlyMap<string, ChannelState>,
  seen: ReadonlyMap<string, { id: string; seq: number; timestamp: number }>,
  now: number,
  makeId: (prefix: 'msg' | 'ntf') => string,
  deleting: ReadonlySet<string> = new Set(),
  allowance: ReadonlyMap<string, QuotaAllowance> = new Map(),
): BatchPlan {
  // only the batch's channels: `states` may be an actor's whole cache
  const after = new Map<string, ChannelState>();
  for (const c of commands) {
    const key = channelKey(c.environmentId, c.channelId);
    const state = states.get(key);
    if (state && !after.has(key)) after.set(key, { ...state });
  }
  const outcome: BatchOutcome = { replies: new Array(commands.length), frames: [], notifications: [], logs: [], states: after };
  const left = new Map([...allowance].map(([environmentId, a]) => [environmentId, { ...a }]));
  const plan: BatchPlan = { outcome, counted: new Map(), allowance: left, messages: [], keys: [], notifications: [], events: [], advanced: [] };
  const used = new Map(seen);
  commands.forEach((c, index) => {
    if (c.op !== 'publish') return;
    const state = after.get(channelKey(c.environmentId, c.channelId));
    if (c.ephemeral) {
      const id = makeId('msg');
      const seq = state?.lastSeq ?? 0;
      const bytes = envelopeOf(c, contentBytesOf(c), id, seq, now, true);
      outcome.frames.push({ index, environmentId: c.environmentId, channelId: c.channelId, bytes });
      outcome.replies[index] = { ok: true, result: { id, seq, timestamp: now, ephemeral: true } };
      return;
    }
    if (deleting.has(channelKey(c.environmentId, c.channelId))) {
      outcome.replies[index] = CHANNEL_DELETING_REPLY;
      return;
    }
    if (!state) throw new Error(`channel row missing for ${c.channelId}`);
    if (c.idempotencyKey !== undefined) {
      const previous = used.get(keyOf(state.pk, c.idempotencyKey));
      if (previous) {
        outcome.replies[index] = { ok: true, result: { ...previous } };
        return;
      }
    }
    const quota = left.get(c.environmentId);
    if (quota) {
      if (quota.left <= 0) {
        outcome.replies[index] = quotaReply(quota);
        return;
      }
      quota.left--;
    }
    plan.counted.set(c.environmentId, (plan.counted.get(c.environmentId) ?? 0) + 1);
    const id = makeId('msg');
    const seq = ++state.lastSeq;
    const contentBytes = contentBytesOf(c);
    const envelope = envelopeOf(c, contentBytes, id, seq, now, false);
    plan.messages.push({
      channel_pk: state.pk,
      seq,
      id,
      type: c.type,
      kind: c.kind,
      content: c.content,
      contentBytes,
      sender_id: c.sender.id,
      sender_anon: c.sender.anon,
      to: c.to ?? null,
      mentions: c.mentions ?? null,
      ts: now,
    });
    if (c.idempotencyKey !== undefined) {
      plan.keys.push({ channel_pk: state.pk, key: c.idempotencyKey, message_id: id, seq, ts: now });
      used.set(keyOf(state.pk, c.idempotencyKey), { id, seq, timestamp: now });
    }
    for (const userId of mentionCandidates(c)) {
      const payload = { channelId: c.channelId, messageId: id, seq, senderId: c.sender.id };
      const notificationId = makeId('ntf');
      plan.notifications.push({
        id: notificationId,
        channel_pk: state.pk,
        environment_id: c.environmentId,
        user_id: userId,
        payload: JSON.stringify(payload),
      });
      outcome.notifications.push({
        index,
        environmentId: c.environmentId,
        userId,
        frame: { op: 'notification', id: notificationId, type: 'mention', payload, timestamp: now },
      });
    }
    plan.events.push(new PublishedEvent(c.environmentId, c.channelId, id, now, envelope));
    outcome.frames.push({ index, environmentId: c.environmentId, channelId: c.channelId, bytes: envelope });
    outcome.logs.push({
      index,
      environmentId: c.environmentId,
      event: 'message.published',
      data: { channelId: c.channelId, messageId: id, seq, type: c.type, kind: c.kind, senderId: c.sender.id },
    });
    outcome.replies[index] = { ok: true, result: { id, seq, timestamp: now } };
  });
  for (const [key, s] of after) {
    const expected = states.get(key)!.lastSeq;
    if (s.lastSeq !== expected) plan.advanced.push({ pk: s.pk, expected, next: s.lastSeq });
  }
  for (const key of deleting) after.delete(key);
  return plan;
}
