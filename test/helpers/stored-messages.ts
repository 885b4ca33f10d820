import { ADVISORY_LOCKS, type Pool } from '@rtm/db';

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

/**
 * Which dispatcher runs an erasure's job now, and how far it is: the job's worker pool (`locked_by`)
 * matched to the dispatcher holding that pool's liveness lock, by its connection's
 * application_name. Undefined while no dispatcher holds it or the erasure is not running.
 */
export async function erasureRunner(pool: Pool, erasureId: string) {
  const { rows } = await pool.query<{ name: string; locked_by: string; retracted: string; deleted: string }>(
    `select a.application_name as name, j.locked_by, e.retracted, e.deleted_messages as deleted
     from graphile_worker.jobs j
     join erasure_jobs e on e.id = $2
     join pg_locks l on l.locktype = 'advisory' and l.granted and l.objsubid = 2
       and l.database = (select oid from pg_database where datname = current_database())
       and l.classid::bigint = $3 and l.objid::bigint = (hashtext(j.locked_by)::bigint & 4294967295)
     join pg_stat_activity a on a.pid = l.pid
     where j.key = $1 and e.status = 'running'`,
    [`erasure:${erasureId}`, erasureId, ADVISORY_LOCKS.dispatcherLiveness],
  );
  const row = rows[0];
  return row && { name: row.name, lockedBy: row.locked_by, retracted: Number(row.retracted), deleted: Number(row.deleted) };
}
