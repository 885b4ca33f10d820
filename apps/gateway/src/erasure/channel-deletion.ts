/**
 * Deleting a channel: its messages (with their idempotency keys), members and bans go, its access
 * override is reset, and its open sockets on every gateway close with 4403 `channel deleted` (a
 * subscription of a multiplexed connection ends with `unsubscribed {code:"forbidden"}`).
 *
 * The channel's row and its `last_seq` stay: the channel's owner keeps its sequence fence, and a
 * channel re-created by a later publish continues after the last seq it ever had, so a client
 * resuming with `since` never sees a seq reused for a different message.
 */
import { encodeJson } from '@rtm/bus';
import type { Pool } from '@rtm/db';
import type { GatewayDeps } from '../deps.ts';

const BATCH = 5_000;

export interface DeletedChannel {
  messages: number;
  members: number;
  bans: number;
}

/** Null when the environment has no such channel (no row, no member, no ban). */
export async function deleteChannelData(pool: Pool, environmentId: string, channelId: string): Promise<DeletedChannel | null> {
  const channel = await pool.query<{ pk: string }>('select pk from channels where environment_id = $1 and id = $2', [environmentId, channelId]);
  const pk = channel.rows[0]?.pk;
  let messages = 0;
  if (pk !== undefined) {
    // in batches: no long lock on a big channel, and the owner keeps publishing meanwhile
    for (;;) {
      const deleted = await pool.query(
        `delete from messages where channel_pk = $1 and seq in (select seq from messages where channel_pk = $1 order by seq limit $2)`,
        [pk, BATCH],
      );
      messages += deleted.rowCount ?? 0;
      if ((deleted.rowCount ?? 0) < BATCH) break;
    }
    await pool.query('delete from idempotency_keys where channel_pk = $1', [pk]);
    await pool.query('update channels set access = null where pk = $1', [pk]);
  }
  const members = await pool.query('delete from memberships where environment_id = $1 and channel_id = $2', [environmentId, channelId]);
  const bans = await pool.query('delete from bans where environment_id = $1 and channel_id = $2', [environmentId, channelId]);
  if (pk === undefined && members.rowCount === 0 && bans.rowCount === 0) return null;
  return { messages, members: members.rowCount ?? 0, bans: bans.rowCount ?? 0 };
}

/** Every gateway closes its sockets on the channel (KickListener handles `{op:'deleted'}`). */
export async function closeChannelSockets(deps: GatewayDeps, environmentId: string, channelId: string): Promise<void> {
  deps.nc.publish(deps.subjects.channelControl(environmentId, channelId), encodeJson({ op: 'deleted' }));
  await deps.nc.flush();
}
