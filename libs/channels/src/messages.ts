/**
 * Reads persisted messages of one channel as envelopes (history, socket replay, gap repair).
 * Content is read as the text the json column stored (`content::text`, never parsed by pg) and
 * spliced into the envelope's text, so history and replay carry the exact bytes that were
 * published, as live frames and webhooks do.
 * `viewer` applies the `to` rule: an addressed message is seen only by its addressees and its
 * sender; the control plane reads with no viewer and sees everything.
 */
import type { Pool, Queryable } from '@rtm/db';
import { messageEnvelope, messageEnvelopeText, type MessageEnvelope } from '@rtm/schemas';

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
}

/** The columns an envelope is made of, from `messages m`. */
export const MESSAGE_COLUMNS = `m.id, m.seq, m.type, m.kind, m.content::text as content, m.sender_id, m.sender_anon, m."to", m.mentions, m.ts,
            m.retracted_at is not null as retracted`;

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
  });
}

/** The envelope's JSON text, the content spliced in as stored. */
export function envelopeTextOfRow(row: MessageRow): string {
  return messageEnvelopeText({
    ...row,
    sender: { id: row.sender_id, anon: row.sender_anon },
    timestamp: row.ts,
    ephemeral: false,
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
  const { rows } = await pool.query<{ last_seq: number }>('select last_seq from channels where environment_id = $1 and id = $2', [
    environmentId,
    channelId,
  ]);
  return rows[0]?.last_seq ?? 0;
}
