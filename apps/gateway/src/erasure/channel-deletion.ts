/**
 * Deleting a channel: its messages (with their idempotency keys), members and bans go, its access
 * override is reset, and its open sockets on every gateway close with 4403 `channel deleted` (a
 * subscription of a multiplexed connection ends with `unsubscribed {code:"forbidden"}`).
 *
 * The order, so that nothing of the old channel outlives the deletion:
 * 1. mark the channel row (`deleting_until`, a lease renewed as the deletion goes on). From this
 *    commit on, the channel's owner cannot advance the channel (its seq fence refuses a marked
 *    row), so no message commits until the end: a publish that committed before the mark is
 *    deleted below; one that arrives meanwhile is refused with 503 `unavailable` (retry);
 * 2. close the channel's sockets on every gateway, while its members, bans and access are still
 *    the old ones (nobody is let in, or kept in, by rules that are about to go);
 * 3. delete the messages in batches (no long lock on a big channel);
 * 4. in one transaction: the last messages, the idempotency keys, members and bans, the access
 *    override, and the mark is lifted: a publish after this commit starts the channel anew;
 * 5. close the sockets again: one opened during the deletion was let in by the old rules.
 * A deletion that fails part-way lifts the mark (or its lease runs out) and can be repeated.
 *
 * The channel's row and its `last_seq` stay: the channel's owner keeps its sequence fence, and a
 * channel re-created by a later publish continues after the last seq it ever had, so a client
 * resuming with `since` never sees a seq reused for a different message.
 */
import { encodeJson } from '@rtm/bus';
import { withTransaction, type Pool } from '@rtm/db';
import type { GatewayDeps } from '../deps.ts';

const BATCH = 5_000;
/** The mark's lease: renewed after every batch; lapses by itself if the deleting gateway dies. */
const DELETING_LEASE_SECONDS = 60;

export interface DeletedChannel {
  messages: number;
  members: number;
  bans: number;
}

/** Null when the environment has no such channel (no row, no member, no ban); see the order above. */
export async function deleteChannel(deps: GatewayDeps, environmentId: string, channelId: string): Promise<DeletedChannel | null> {
  const { pool } = deps;
  // 1. the mark: waits for a commit of the owner in flight on this row, then stops the next ones
  const marked = await pool.query<{ pk: string }>(
    `update channels set deleting_until = now() + make_interval(secs => $3) where environment_id = $1 and id = $2 returning pk`,
    [environmentId, channelId, DELETING_LEASE_SECONDS],
  );
  const pk = marked.rows[0]?.pk;
  if (pk === undefined && !(await hasMembersOrBans(pool, environmentId, channelId))) return null;
  try {
    // 2. no socket watches while the channel is taken apart
    await closeChannelSockets(deps, environmentId, channelId);
    // 3. the messages, in batches
    let messages = 0;
    if (pk !== undefined) {
      for (;;) {
        const deleted = await pool.query(
          `delete from messages where channel_pk = $1 and seq in (select seq from messages where channel_pk = $1 order by seq limit $2)`,
          [pk, BATCH],
        );
        messages += deleted.rowCount ?? 0;
        if ((deleted.rowCount ?? 0) < BATCH) break;
        await pool.query(`update channels set deleting_until = now() + make_interval(secs => $2) where pk = $1`, [pk, DELETING_LEASE_SECONDS]);
      }
    }
    // 4. the rest at once; the channel row last (a publish waiting on it then starts the channel anew)
    const result = await withTransaction(pool, async (client) => {
      if (pk !== undefined) {
        const rest = await client.query('delete from messages where channel_pk = $1', [pk]);
        messages += rest.rowCount ?? 0;
        await client.query('delete from idempotency_keys where channel_pk = $1', [pk]);
      }
      const members = await client.query('delete from memberships where environment_id = $1 and channel_id = $2', [environmentId, channelId]);
      const bans = await client.query('delete from bans where environment_id = $1 and channel_id = $2', [environmentId, channelId]);
      if (pk !== undefined) await client.query('update channels set access = null, deleting_until = null where pk = $1', [pk]);
      return { messages, members: members.rowCount ?? 0, bans: bans.rowCount ?? 0 };
    });
    // 5. a socket opened meanwhile was admitted by the old members, bans or access
    await closeChannelSockets(deps, environmentId, channelId);
    return result;
  } catch (error) {
    // publishes may go on; the caller can repeat the deletion
    if (pk !== undefined) await pool.query('update channels set deleting_until = null where pk = $1', [pk]).catch(() => undefined);
    throw error;
  }
}

async function hasMembersOrBans(pool: Pool, environmentId: string, channelId: string): Promise<boolean> {
  const { rows } = await pool.query(
    `select exists (select 1 from memberships where environment_id = $1 and channel_id = $2)
         or exists (select 1 from bans where environment_id = $1 and channel_id = $2) as found`,
    [environmentId, channelId],
  );
  return rows[0].found === true;
}

/** Every gateway closes its sockets on the channel (KickListener handles `{op:'deleted'}`). */
export async function closeChannelSockets(deps: GatewayDeps, environmentId: string, channelId: string): Promise<void> {
  deps.nc.publish(deps.subjects.channelControl(environmentId, channelId), encodeJson({ op: 'deleted' }));
  await deps.nc.flush();
}
