/**
 * The node's commit pipeline. Partition actors still decide what to write and in which order
 * (each has at most one batch in flight, so per-channel order is theirs alone); this module
 * merges the batches that several actors submit at the same moment into ONE transaction.
 * Why: with many channels the batch of one partition is small (in-flight requests ÷ partitions,
 * ~1.5 at 50 clients and 32 partitions), and a transaction per tiny batch costs as many round
 * trips and WAL flushes as a transaction per message. Merged, one commit carries whatever the
 * whole node has in hand.
 *
 * Guarantees: a submission's outcome is exactly what writeBatch would give for it alone (channel
 * sets of actors are disjoint); a FenceError rolls back the merged transaction, every submitter's
 * view of its channels is dropped and the group is retried from Postgres' values; any other
 * failure of a merged group is bisected by submission, so one actor's bad command cannot fail
 * another's and costs O(log n) transactions, not one per submission. At most `lanes` transactions run at once.
 */
import { isConnectionError, type Pool } from '@rtm/db';
import type { ChannelCommand } from '@rtm/schemas';
import { FenceError, channelKey, writeBatch, type BatchOutcome, type ChannelState } from './commit-batch.ts';

interface Submission {
  commands: readonly ChannelCommand[];
  cache: Map<string, ChannelState>;
  resolve: (outcome: BatchOutcome) => void;
  reject: (error: unknown) => void;
}

const FENCE_RETRIES = 5;

export class NodeCommitter {
  private readonly pool: Pool;
  private readonly maxCommands: number;
  private readonly lanes: number;
  private readonly pending: Submission[] = [];
  private running = 0;

  constructor(pool: Pool, options: { maxCommands: number; lanes: number }) {
    this.pool = pool;
    this.maxCommands = options.maxCommands;
    this.lanes = options.lanes;
  }

  /** Commits `commands` (with the submitter's view of its channels); resolves after commit. */
  commit(commands: readonly ChannelCommand[], cache: Map<string, ChannelState>): Promise<BatchOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ commands, cache, resolve, reject });
      if (this.running < this.lanes) void this.lane();
    });
  }

  private async lane(): Promise<void> {
    this.running++;
    try {
      while (this.pending.length > 0) {
        let size = 0;
        let take = 0;
        while (take < this.pending.length && (take === 0 || size + this.pending[take]!.commands.length <= this.maxCommands)) {
          size += this.pending[take]!.commands.length;
          take++;
        }
        await this.commitGroup(this.pending.splice(0, take));
      }
    } finally {
      this.running--;
    }
  }

  private async commitGroup(group: Submission[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const outcome = await this.transaction(group);
        split(group, outcome);
        return;
      } catch (error) {
        // whatever the submitters believed about these channels may be stale now
        for (const s of group) for (const c of s.commands) s.cache.delete(channelKey(c.environmentId, c.channelId));
        if (error instanceof FenceError && attempt < FENCE_RETRIES) continue;
        // one submitter's channel keeps moving (a stale writer elsewhere) or one submitter's
        // command fails: bisect the group so the others commit without it (the failing
        // submitter's own actor then isolates the command: commit-isolating.ts)
        if (group.length > 1 && !isConnectionError(error)) {
          const middle = Math.ceil(group.length / 2);
          await this.commitGroup(group.slice(0, middle));
          await this.commitGroup(group.slice(middle));
          return;
        }
        for (const s of group) s.reject(error);
        return;
      }
    }
  }

  private async transaction(group: Submission[]): Promise<BatchOutcome> {
    const commands = group.length === 1 ? group[0]!.commands : group.flatMap((s) => s.commands);
    const view = new Map<string, ChannelState>();
    for (const s of group) {
      for (const c of s.commands) {
        const key = channelKey(c.environmentId, c.channelId);
        const state = s.cache.get(key);
        if (state) view.set(key, state);
      }
    }
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const outcome = await writeBatch(client, commands, view);
      await client.query('commit');
      return outcome;
    } catch (error) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/** Hands each submitter its part of a merged outcome. */
function split(group: Submission[], outcome: BatchOutcome): void {
  if (group.length === 1) return group[0]!.resolve(outcome);
  let offset = 0;
  for (const s of group) {
    const from = offset;
    const to = offset + s.commands.length;
    offset = to;
    const inRange = (item: { index: number }) => item.index >= from && item.index < to;
    const shift = <T extends { index: number }>(item: T): T => ({ ...item, index: item.index - from });
    const keys = new Set(s.commands.map((c) => channelKey(c.environmentId, c.channelId)));
    s.resolve({
      replies: outcome.replies.slice(from, to),
      frames: outcome.frames.filter(inRange).map(shift),
      notifications: outcome.notifications.filter(inRange).map(shift),
      logs: outcome.logs.filter(inRange).map(shift),
      states: new Map([...outcome.states].filter(([key]) => keys.has(key))),
    });
  }
}
