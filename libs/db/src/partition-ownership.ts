/**
 * Which partitions this process owns, for every kind of process that splits work into fixed
 * partitions (channel-nodes: channel partitions; dispatchers: webhook partitions). Ownership is a
 * Postgres session-level advisory lock (`partitionLocks`, partition) held on ONE dedicated
 * connection: when the process dies, even by kill -9, the connection drops and Postgres releases
 * every lock at once, so the survivors can take the partitions at their next rebalance. Liveness
 * works the same way: each process holds (`nodeLocks`, its number), and the number of such locks
 * in pg_locks is the number of live processes of its kind. Every `rebalanceMs` a process takes
 * unowned partitions up to ceil(P / N) and gives extras back (`release` first, then unlock), so
 * load spreads when processes join.
 *
 * Guarantees: a partition is held by at most one live session; if the lock connection breaks
 * every partition is dropped at once (`lost`) before it tries to come back. Two processes can
 * still briefly both act (a dropped one finishing its work): each user fences that itself (the
 * channel-node's commit fence, the dispatcher's delivery leases).
 */
import type pg from 'pg';
import { LocatingClient } from './server-locator.ts';

/** What ownership logs: a pino logger fits. */
interface OwnershipLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const MAX_NODES = 1024;

export interface OwnershipOptions {
  databaseUrl: string;
  /** Advisory-lock class of the processes' numbers (ADVISORY_LOCKS), one per kind of process. */
  nodeLocks: number;
  /** Advisory-lock class of the partitions (ADVISORY_LOCKS), one per kind of partition. */
  partitionLocks: number;
  /** The lock connection's application_name, as pg_stat_activity shows it. */
  applicationName: string;
  partitions: number;
  rebalanceMs: number;
  log: OwnershipLog;
  /**
   * Keep `partition_holders` (migration 000018) under this kind of partition: who holds each one,
   * so that a new holder learns whether its predecessor died (`acquire`'s `orphaned`) or gave the
   * partition back.
   */
  holders?: string;
  /**
   * Start serving a partition (the lock is already held). `orphaned` (with `holders`): its last
   * holder's session is gone without giving it back (it died), so nothing it leased is in hand.
   */
  acquire: (partition: number, orphaned: boolean) => Promise<void>;
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
    // to the server the pools use (server-locator.ts): the locks are where the commits are
    const client = new LocatingClient({
      connectionString: this.options.databaseUrl,
      application_name: this.options.applicationName,
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
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [this.options.nodeLocks, n]);
      if (rows[0]!.ok) {
        this.node = n;
        return client;
      }
    }
    await client.end();
    throw new Error(`no free number under advisory-lock class ${this.options.nodeLocks}`);
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
      [this.options.nodeLocks, this.options.partitionLocks],
    );
    const nodes = Math.max(1, rows.filter((r) => Number(r.classid) === this.options.nodeLocks).length);
    const taken = new Set(rows.filter((r) => Number(r.classid) === this.options.partitionLocks).map((r) => Number(r.objid)));
    const target = Math.ceil(partitions / nodes);

    if (this.owned.size > target) {
      const extras = [...this.owned].sort((a, b) => b - a).slice(0, this.owned.size - target);
      for (const partition of extras) await this.giveBack(partition);
      return;
    }
    // start looking at a node-specific offset so joining nodes do not all race for partition 0
    const offset = ((this.node ?? 0) * Math.ceil(partitions / 4)) % partitions;
    const free: number[] = [];
    for (let i = 0; i < partitions; i++) {
      const partition = (offset + i) % partitions;
      if (!taken.has(partition) && !this.owned.has(partition)) free.push(partition);
    }
    const wanted = target - this.owned.size;
    if (wanted <= 0 || free.length === 0 || this.stopped) return;
    // one round trip for the locks (the limit stops the scan once enough are held, so no more are
    // taken than wanted), then every partition starts at once: a node taking over a dead one's
    // share serves all of it after one lock statement and one start, not one partition at a time
    const { rows: locked } = await client.query<{ partition: number }>(
      'select p as partition from unnest($2::int[]) as p where pg_try_advisory_lock($1, p) limit $3',
      [this.options.partitionLocks, free, wanted],
    );
    if (this.client !== client) return;
    for (const { partition } of locked) this.owned.add(partition);
    await Promise.all(
      locked.map(async ({ partition }) => {
        try {
          await this.options.acquire(partition, this.options.holders !== undefined ? await this.hold(client, this.options.holders, partition) : false);
        } catch (error) {
          this.options.log.error({ err: error, partition }, 'could not start partition');
          this.owned.delete(partition);
          await client.query('select pg_advisory_unlock($1, $2)', [this.options.partitionLocks, partition]);
        }
      }),
    );
  }

  /**
   * Writes this session as the partition's holder; whether the previous holder's session is gone
   * (it died holding the partition: a holder that gives it back deletes its row first).
   */
  private async hold(client: pg.Client, kind: string, partition: number): Promise<boolean> {
    const { rows } = await client.query<{ orphaned: boolean }>(
      `with previous as (
         select backend_pid, backend_start from partition_holders where kind = $1 and partition = $2
       ),
       mine as (
         insert into partition_holders (kind, partition, backend_pid, backend_start)
         select $1, $2, pid, backend_start from pg_stat_activity where pid = pg_backend_pid()
         on conflict (kind, partition) do update set backend_pid = excluded.backend_pid, backend_start = excluded.backend_start
       )
       select exists (select 1 from previous p
                      where not exists (select 1 from pg_stat_activity a
                                        where a.pid = p.backend_pid and a.backend_start = p.backend_start)) as orphaned`,
      [kind, partition],
    );
    return rows[0]!.orphaned;
  }

  private async giveBack(partition: number): Promise<void> {
    await this.options.release(partition);
    this.owned.delete(partition);
    if (this.options.holders !== undefined) {
      await this.client
        ?.query('delete from partition_holders where kind = $1 and partition = $2 and backend_pid = pg_backend_pid()', [this.options.holders, partition])
        .catch(() => {});
    }
    await this.client?.query('select pg_advisory_unlock($1, $2)', [this.options.partitionLocks, partition]).catch(() => {});
  }
}
