/**
 * Which webhook partitions this dispatcher owns: the channel-nodes' partition ownership
 * (apps/channel-node/src/partition-ownership.ts), with lock classes of its own. Ownership of a
 * partition is a Postgres session-level advisory lock (webhookPartitions, partition) on ONE
 * dedicated connection: when the process dies, even by kill -9, the connection drops and Postgres
 * releases every lock at once, so the survivors take the partitions at their next rebalance.
 * Each dispatcher also holds (dispatcherNodes, n); their count is the number of live
 * dispatchers. Every `rebalanceMs` a dispatcher takes unowned partitions up to ceil(P / N) and
 * gives extras back (released first: its queued deliveries are handed to the next owner).
 *
 * Guarantees: a partition is held by at most one live session; if this dispatcher's lock
 * connection breaks it drops every partition at once (lost) before trying to come back. A
 * dispatcher that lost a partition may still finish the sends it had started: each delivery's
 * lease keeps them from being sent twice at once, and the endpoint's limit may be exceeded by
 * those sends only, during the handover.
 */
import pg from 'pg';
import type { Logger } from '@rtm/ops';
import { ADVISORY_LOCKS } from '@rtm/db';

const NODE_LOCKS = ADVISORY_LOCKS.dispatcherNodes;
const PARTITION_LOCKS = ADVISORY_LOCKS.webhookPartitions;
const MAX_NODES = 1024;

export interface OwnershipOptions {
  databaseUrl: string;
  partitions: number;
  rebalanceMs: number;
  log: Logger;
  /** Start serving a partition (the lock is already held). */
  acquire: (partition: number) => Promise<void>;
  /** Stop serving a partition gracefully (the lock is released after this resolves). */
  release: (partition: number) => Promise<void>;
  /** The lock connection broke: stop every partition now. */
  lost: () => void;
}

export class PartitionOwnership {
  private readonly options: OwnershipOptions;
  private client: pg.Client | undefined;
  private node: number | undefined;
  private readonly owned = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(options: OwnershipOptions) {
    this.options = options;
  }

  get partitions(): ReadonlySet<number> {
    return this.owned;
  }

  /** Connects, registers the node and takes a first share of partitions. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.options.rebalanceMs);
  }

  /** Gives every partition back (drained) and leaves. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    const client = this.client;
    for (const partition of [...this.owned]) await this.giveBack(partition);
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private tick(): Promise<void> {
    if (this.running || this.stopped) return this.running ?? Promise.resolve();
    this.running = this.rebalance()
      .catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'rebalance failed');
        this.dropConnection();
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async connect(): Promise<pg.Client> {
    // a lock query that does not answer in time means the session (and its locks) may be gone:
    // the rebalance fails and every partition is dropped, rather than serving on a dead session
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: 'dispatcher-locks',
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      query_timeout: 5_000,
    });
    client.on('error', (error) => {
      this.options.log.error({ err: error }, 'lock connection lost');
      if (this.client === client) this.dropConnection();
    });
    await client.connect();
    for (let n = 0; n < MAX_NODES; n++) {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [NODE_LOCKS, n]);
      if (rows[0]!.ok) {
        this.node = n;
        return client;
      }
    }
    await client.end();
    throw new Error('no free dispatcher number');
  }

  /** Every partition is gone with the connection's locks: stop serving all of them now. */
  private dropConnection(): void {
    const client = this.client;
    this.client = undefined;
    if (this.owned.size > 0) {
      this.owned.clear();
      this.options.lost();
    }
    void client?.end().catch(() => {});
  }

  private async rebalance(): Promise<void> {
    this.client ??= await this.connect();
    const client = this.client;
    const { partitions } = this.options;
    const { rows } = await client.query<{ classid: number; objid: number }>(
      `select classid::int8 as classid, objid::int8 as objid from pg_locks
       where locktype = 'advisory' and granted and objsubid = 2
         and database = (select oid from pg_database where datname = current_database())
         and classid in ($1::int8::oid, $2::int8::oid)`,
      [NODE_LOCKS, PARTITION_LOCKS],
    );
    const nodes = Math.max(1, rows.filter((r) => Number(r.classid) === NODE_LOCKS).length);
    const taken = new Set(rows.filter((r) => Number(r.classid) === PARTITION_LOCKS).map((r) => Number(r.objid)));
    const target = Math.ceil(partitions / nodes);

    if (this.owned.size > target) {
      const extras = [...this.owned].sort((a, b) => b - a).slice(0, this.owned.size - target);
      for (const partition of extras) await this.giveBack(partition);
      return;
    }
    // start looking at a node-specific offset so joining nodes do not all race for partition 0
    const offset = ((this.node ?? 0) * Math.ceil(partitions / 4)) % partitions;
    for (let i = 0; i < partitions && this.owned.size < target && !this.stopped; i++) {
      const partition = (offset + i) % partitions;
      if (taken.has(partition) || this.owned.has(partition)) continue;
      const result = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [PARTITION_LOCKS, partition]);
      if (!result.rows[0]!.ok) continue;
      if (this.client !== client) return;
      this.owned.add(partition);
      try {
        await this.options.acquire(partition);
      } catch (error) {
        this.options.log.error({ err: error, partition }, 'could not start partition');
        this.owned.delete(partition);
        await client.query('select pg_advisory_unlock($1, $2)', [PARTITION_LOCKS, partition]);
      }
    }
  }

  private async giveBack(partition: number): Promise<void> {
    await this.options.release(partition);
    this.owned.delete(partition);
    await this.client?.query('select pg_advisory_unlock($1, $2)', [PARTITION_LOCKS, partition]).catch(() => {});
  }
}
