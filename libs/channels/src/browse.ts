/**
 * The control plane's view of an environment's channels and messages (the dashboard's message
 * browser): every message, addressed ones and retracted tombstones included.
 */
import type { Queryable } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { MESSAGE_COLUMNS, type MessageRow } from './messages.ts';

export interface ChannelSummary {
  id: string;
  lastSeq: number;
  createdAt: Date;
  messageCount: number;
  /** The newest persisted message's time (ms), null without messages. */
  lastTs: number | null;
}

/** Channels by id after `after` (null: from the first), `limit` of them and whether more follow. */
export async function listChannels(
  pool: Queryable,
  environmentId: string,
  page: { after: string | null; limit: number },
): Promise<{ channels: ChannelSummary[]; more: boolean }> {
  const { rows } = await pool.query<{ id: string; last_seq: number; created_at: Date; message_count: number; last_ts: number | null }>(
    `select c.id, c.last_seq, c.created_at,
            (select count(*) from messages m where m.channel_pk = c.pk)::int as message_count,
            (select m.ts from messages m where m.channel_pk = c.pk order by m.seq desc limit 1) as last_ts
     from channels c
     where c.environment_id = $1 and ($2::text is null or c.id > $2)
     order by c.id limit $3`,
    [environmentId, page.after, page.limit + 1],
  );
  const channels = rows.slice(0, page.limit).map((row) => ({
    id: row.id,
    lastSeq: row.last_seq,
    createdAt: row.created_at,
    messageCount: row.message_count,
    lastTs: row.last_ts,
  }));
  return { channels, more: rows.length > page.limit };
}

/** A message as the browser shows it: the envelope's row, and when it was retracted. */
export interface BrowsedRow extends MessageRow {
  retracted_at: Date | null;
}

const BROWSED_COLUMNS = `${MESSAGE_COLUMNS}, m.retracted_at`;

export interface BrowseFilter {
  /** Exclusive upper bound of seq (the previous page's last). */
  before?: number | undefined;
  sender?: string | undefined;
  type?: string | undefined;
  /** Publish time in ms: inclusive lower and exclusive upper bounds. */
  since?: number | undefined;
  until?: number | undefined;
  limit: number;
}

/** A page of a channel's messages, newest first, and whether older ones follow. */
export async function browseMessages(
  pool: Queryable,
  environmentId: string,
  channelId: string,
  filter: BrowseFilter,
): Promise<{ rows: BrowsedRow[]; more: boolean }> {
  const { rows } = await pool.query<BrowsedRow>(
    `select ${BROWSED_COLUMNS} from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 and c.id = $2 and m.seq < $3
       and ($4::text is null or m.sender_id = $4) and ($5::text is null or m.type = $5)
       and ($6::bigint is null or m.ts >= $6) and ($7::bigint is null or m.ts < $7)
     order by m.seq desc limit $8`,
    [
      environmentId,
      channelId,
      filter.before ?? Number.MAX_SAFE_INTEGER,
      filter.sender ?? null,
      filter.type ?? null,
      filter.since ?? null,
      filter.until ?? null,
      filter.limit + 1,
    ],
  );
  return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
}

/** One message of the channel; 404 `not_found` when the channel has no such message. */
export async function findMessage(pool: Queryable, environmentId: string, channelId: string, messageId: string): Promise<BrowsedRow> {
  const { rows } = await pool.query<BrowsedRow>(
    `select ${BROWSED_COLUMNS} from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 and c.id = $2 and m.id = $3`,
    [environmentId, channelId, messageId],
  );
  if (!rows[0]) throw new ServiceError('not_found', 'no such message in this channel');
  return rows[0];
}
