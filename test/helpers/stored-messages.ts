import type { Pool } from '@rtm/db';

/**
 * A user's messages written straight into Postgres, `perChannel` in each of `channels` channels
 * (`room-0`, `room-1`, …): for tests that need thousands of stored messages (erasure), where
 * publishing them one by one would only cost time. Ids are `msg_<tag>_<channel pk>_<seq>`.
 */
export async function writeUserMessages(
  pool: Pool,
  options: { environmentId: string; userId: string; channels: number; perChannel: number; tag: string },
): Promise<number> {
  for (let c = 0; c < options.channels; c++) {
    const { rows } = await pool.query<{ pk: string }>('insert into channels (environment_id, id, last_seq) values ($1, $2, $3) returning pk', [
      options.environmentId,
      `room-${c}`,
      options.perChannel,
    ]);
    await pool.query(
      `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts)
       select $1::bigint, g, 'msg_' || $3 || '_' || $1::bigint || '_' || g, 'message', 'user', '{"n":1}'::json, $4, false, 0
       from generate_series(1, $2) g`,
      [rows[0]!.pk, options.perChannel, options.tag, options.userId],
    );
  }
  return options.channels * options.perChannel;
}
