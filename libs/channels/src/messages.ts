/**
 * Reads persisted messages of one channel as envelopes (history, socket replay, gap repair).
 * Content is read as the text the json column stored (`content::text`, never parsed by pg) and
 * spliced into the envelope's text, so history and replay carry the exact bytes that were
 * published, as live frames and webhooks do.
 * `viewer` applies the `to` rule: an addressed message is seen only by its addressees and its
 * sender; the control plane reads with no viewer and sees everything.
 */
import type { Pool, Queryable } from '@rtm/db';
import { messageEnvelope, messageEnvelopeText, type MessageEnvelope, type ReactionSummary } from '@rtm/schemas';

/** A `messages` row as MESSAGE_COLUMNS selects it (alias `m`). */
export interface MessageRow {
  id: string;
  seq: number;
  type: string;
  kind: MessageEnvelope['kind'];
  /** The content's JSON text as published; null once retracted. */
  content: string | null;
  sender_id: string;
  sender_anon: boolean;
  to: string[] | null;
  mentions: string[] | null;
  ts: number;
  retracted: boolean;
  version: number;
  updated_at: number | null;
  updated_by: string | null;
  /** The reaction summary's JSON text; null when nobody reacted. */
  reactions: string | null;
}

/** The columns an envelope is made of, from `messages m`. */
export const MESSAGE_COLUMNS = `m.id, m.seq, m.type, m.kind, m.content::text as content, m.sender_id, m.sender_anon, m."to", m.mentions, m.ts,
            m.retracted_at is not null as retracted, m.version, m.updated_at, m.updated_by, m.reactions::text as reactions`;

export interface ReadRange {
  /** Exclusive lower bound. */
  after?: number;
  /** Exclusive upper bound. */
  before?: number;
  limit: number;
  /** Newest first (then reversed by the caller) instead of oldest first. */
  newest?: boolean;
  viewer?: string;
}

/** The envelope as an object (content parsed): for the dashboard, which shows rather than relays it. */
export function envelopeOfRow(row: MessageRow): MessageEnvelope {
  return messageEnvelope({
    ...row,
    content: row.content === null ? null : (JSON.parse(row.content) as Record<string, unknown>),
    sender: { id: row.sender_id, anon: row.sender_anon },
    timestamp: row.ts,
    ephemeral: false,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    reactions: row.reactions === null ? null : (JSON.parse(row.reactions) as ReactionSummary),
  });
}

/** The envelope's JSON text, the content spliced in as stored. */
export function envelopeTextOfRow(row: MessageRow): string {
  return messageEnvelopeText({
    ...row,
    sender: { id: row.sender_id, anon: row.sender_anon },
    timestamp: row.ts,
    ephemeral: false,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  });
}

/** A persisted message as history and replay send it: its seq and its envelope's JSON text. */
export interface StoredMessage {
  seq: number;
  text: string;
}

/** Messages in the range, in the order asked for (ascending unless `newest`). */
export async function readMessages(pool: Queryable, environmentId: string, channelId: string, range: ReadRange): Promise<StoredMessage[]> {
  const { rows } = await pool.query<MessageRow>(
    `select ${MESSAGE_COLUMNS}
     from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 and c.id = $2 and m.seq > $3 and m.seq < $4
       and ($5::text is null or m."to" is null or $5::text = any(m."to") or m.sender_id = $5::text)
     order by m.seq ${range.newest ? 'desc' : 'asc'}
     limit $6`,
    [environmentId, channelId, range.after ?? 0, range.before ?? Number.MAX_SAFE_INTEGER, range.viewer ?? null, range.limit],
  );
  return rows.map((row) => ({ seq: row.seq, text: envelopeTextOfRow(row) }));
}

/** The channel's last persisted seq (0 for a channel that has none). */
export async function readLastSeq(pool: Pool, environmentId: string, channelId: string): Promise<number> {
  const { rows } = await pool.query<{ last_seq: number }>('select last_seq from channels where environment_id = $1 and id = $2', [environmentId, channelId]);
  return rows[0]?.last_seq ?? 0;
}

/** A version of a message's content as VERSIONS_SQL reads it. */
interface VersionRow {
  version: number;
  content: string;
  updated_at: number | null;
  updated_by: string | null;
}

/**
 * Every version of a message's content, oldest first (the earlier ones, then the content now), as
 * the JSON text of `{versions}`; null when the message is not in the channel, or not for `viewer`
 * (a message addressed to others). A retracted message has no version left.
 */
export async function readVersions(pool: Queryable, environmentId: string, channelId: string, messageId: string, viewer?: string): Promise<string | null> {
  const { rows } = await pool.query<VersionRow>(
    `with m as (
       select m.channel_pk, m.seq, m.version, m.content, m.updated_at, m.updated_by
       from messages m join channels c on c.pk = m.channel_pk
       where c.environment_id = $1 and c.id = $2 and m.id = $3
         and ($4::text is null or m."to" is null or $4::text = any(m."to") or m.sender_id = $4::text))
     select v.version, v.content::text as content, v.updated_at, v.updated_by
       from m join message_versions v on v.channel_pk = m.channel_pk and v.seq = m.seq
     union all
     select m.version, m.content::text, m.updated_at, m.updated_by from m where m.content is not null
     order by 1`,
    [environmentId, channelId, messageId, viewer ?? null],
  );
  if (rows.length === 0) {
    const exists = await pool.query(
      `select 1 from messages m join channels c on c.pk = m.channel_pk
       where c.environment_id = $1 and c.id = $2 and m.id = $3
         and ($4::text is null or m."to" is null or $4::text = any(m."to") or m.sender_id = $4::text)`,
      [environmentId, channelId, messageId, viewer ?? null],
    );
    if (exists.rowCount === 0) return null;
  }
  const versions = rows.map(
    (row) => `{"version":${row.version},"content":${row.content},"updatedAt":${row.updated_at ?? 'null'},"updatedBy":${JSON.stringify(row.updated_by)}}`,
  );
  return `{"versions":[${versions.join(',')}]}`;
}

/** A change of the channel's sequence as a replay or a gap repair sends it: its seq and its frame's JSON text. */
export interface StoredChange {
  /** The change's seq in the channel's sequence (`eventSeq`). */
  position: number;
  text: string;
}

export interface ChangeRange {
  /** Exclusive bounds on the changes' seqs. */
  after: number;
  before: number;
  limit: number;
  /**
   * Only changes of messages at or below this seq, and of each such message only its latest change
   * in the range (a resume: the messages above it are replayed as they are now anyway).
   */
  olderThan?: number;
  viewer?: string;
}

/**
 * The frame of a change as it is sent after the fact (a replay, a gap repair): the message as it is
 * now, whatever the change was: a `retract` frame when it is retracted, else an `update` frame
 * (the envelope, its reactions included). `to` and `sender` ride along on a retraction of an
 * addressed message, as live (the feed filters by them).
 */
export function changeFrameText(row: MessageRow, eventSeq: number): string {
  if (row.retracted) {
    const frame: Record<string, unknown> = { op: 'retract', id: row.id, seq: row.seq, eventSeq };
    if (row.to) {
      frame.to = row.to;
      frame.sender = { id: row.sender_id, anon: row.sender_anon };
    }
    return JSON.stringify(frame);
  }
  return `{"op":"update","eventSeq":${eventSeq},${envelopeTextOfRow(row).slice(1)}`;
}

/** Changes of the channel's messages in a range of the channel's sequence, oldest first, as frames. */
export async function readChanges(pool: Queryable, environmentId: string, channelId: string, range: ChangeRange): Promise<StoredChange[]> {
  const older = range.olderThan !== undefined;
  // a resume's: each older message once at its latest change, the page the first `limit` of those
  // by change seq (each page reads from its `after`, so the range shrinks as the replay goes on)
  const { rows } = await pool.query<MessageRow & { event_seq: number }>(
    `select * from (select ${older ? 'distinct on (m.seq)' : ''} e.event_seq, ${MESSAGE_COLUMNS}
     from channels c join message_events e on e.channel_pk = c.pk
     join messages m on m.channel_pk = e.channel_pk and m.seq = e.seq
     where c.environment_id = $1 and c.id = $2 and e.event_seq > $3 and e.event_seq < $4
       and ($5::bigint is null or e.seq <= $5::bigint)
       and ($6::text is null or m."to" is null or $6::text = any(m."to") or m.sender_id = $6::text)
     order by ${older ? 'm.seq, e.event_seq desc' : 'e.event_seq'}) changed
     order by event_seq limit $7`,
    [environmentId, channelId, range.after, range.before, older ? range.olderThan : null, range.viewer ?? null, range.limit],
  );
  return rows.map((row) => ({ position: Number(row.event_seq), text: changeFrameText(row, Number(row.event_seq)) }));
}
