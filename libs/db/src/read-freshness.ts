/**
 * When a read may be answered by the read pool (DATABASE_READ_URL, a streaming replica) rather
 * than the primary: the pure rules behind `Reads` (reads.ts), written out in docs/read-replicas.md.
 *
 * A reader never sees less than it has already been told, and never sees again what was retracted
 * or erased before it asked. One rule gives both, for every read: the primary's WAL position, read
 * when the read starts, replayed by the replica. A channel's seq would say which messages a
 * replica holds but not which of them were retracted or erased since, so no read goes by a seq.
 */

/**
 * Which server answers, after `attempts` reads of the replica found it behind: one more try after
 * a short wait (a streaming replica is usually milliseconds behind), then the primary.
 */
export function afterBehind(attempts: number, waitMs: number): 'wait' | 'primary' {
  return attempts < 2 && waitMs > 0 ? 'wait' : 'primary';
}

/** A WAL position as Postgres writes it (`16/B374D848`), as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!match) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/** What the read pool's server says of its replay (REPLAY_STATE_SQL). */
export interface ReplayState {
  standby: boolean;
  /** The standby's WAL receiver is streaming from its primary. */
  streaming: boolean;
  /** Received WAL not yet replayed, in bytes (0 on a primary). */
  unreplayedBytes: number;
  /** Seconds since the last transaction replayed (null: none replayed since start). */
  sinceReplay: number | null;
}

/**
 * Seconds the replica is behind its primary. `now() - pg_last_xact_replay_timestamp()` alone grows
 * while the primary commits nothing, so a streaming standby that has replayed all it received is
 * 0 behind; one that is not streaming (its primary away, replication broken) is as far behind as
 * its last replayed transaction. A primary in the read pool (prefer-standby found no standby) is 0.
 */
export function lagSeconds(state: ReplayState): number {
  if (!state.standby) return 0;
  if (state.streaming && state.unreplayedBytes === 0) return 0;
  return Math.max(0, state.sinceReplay ?? 0);
}

/**
 * Whether the read pool's server has every commit the primary had made at `primaryLsn`: a primary
 * (not in recovery) has its own commits; a standby once it has replayed up to that position.
 */
export function replayedTo(server: { standby: boolean; replayed: string | null }, primaryLsn: string): boolean {
  if (!server.standby) return true;
  return server.replayed !== null && lsnBytes(server.replayed) >= lsnBytes(primaryLsn);
}
