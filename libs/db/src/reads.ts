/**
 * Reads that may be served by the read pool (DATABASE_READ_URL): channel history and replay
 * pages, the dashboard's browsing, rosters, ledger pages. Without a read pool every read is the
 * primary's query, as before. With one, every read follows one rule (read-freshness.ts,
 * docs/read-replicas.md): the replica answers once it has replayed the primary's WAL position
 * read when the read starts, so it shows every change committed before, retractions and erasures
 * included; otherwise, after one short wait, the primary answers. A replica that fails
 * (unreachable, a recovery conflict) hands the read to the primary too, so losing the replica
 * costs the primary load, never an answer.
 */
import type pg from 'pg';
import { afterBehind, replayedTo } from './read-freshness.ts';

export type ReadKind = 'history' | 'replay' | 'browse' | 'roster' | 'ledger' | 'stats';

/** Where a read went: the replica (`current`, or current after a wait) or the primary (why). */
export type ReadServed = { pool: 'replica'; reason: 'current' | 'waited' } | { pool: 'primary'; reason: 'no_replica' | 'behind' | 'failed' };

/** A pool or one of its clients: where a read's statements run. */
export type Queryable = Pick<pg.Pool, 'query'>;

/** A streaming replica is usually milliseconds behind: one more look after this long, then the primary. */
export const CATCH_UP_WAIT_MS = 20;

export class Reads {
  readonly primary: pg.Pool;
  readonly replica: pg.Pool | undefined;
  readonly #served: (read: ReadKind, served: ReadServed) => void;
  readonly #waitMs: number;

  constructor(primary: pg.Pool, replica: pg.Pool | undefined, served: (read: ReadKind, served: ReadServed) => void = () => {}, waitMs = CATCH_UP_WAIT_MS) {
    this.primary = primary;
    this.replica = replica;
    this.#served = served;
    this.#waitMs = waitMs;
  }

  /**
   * A read that must show every commit made before it started: the primary's WAL position is read
   * first (no table is touched), and the replica answers once it has replayed that far. With
   * synchronous_commit on (the service needs it), a commit is seen or acknowledged only once its
   * record is flushed, so that position is past every commit a reader could have been told of.
   */
  async current<T>(read: ReadKind, query: (db: Queryable) => Promise<T>): Promise<T> {
    const replica = this.replica;
    if (!replica) return this.#onPrimary(read, 'no_replica', query);
    const { rows } = await this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const lsn = rows[0]!.lsn;
    let client: pg.PoolClient;
    try {
      client = await replica.connect();
    } catch {
      return this.#onPrimary(read, 'failed', query);
    }
    let released = false;
    try {
      for (let attempts = 1; ; attempts++) {
        const { rows: state } = await client.query<{ standby: boolean; replayed: string | null }>(REPLAYED_SQL);
        if (replayedTo(state[0]!, lsn)) {
          const answer = await query(client);
          this.#served(read, { pool: 'replica', reason: attempts === 1 ? 'current' : 'waited' });
          return answer;
        }
        if (afterBehind(attempts, this.#waitMs) === 'primary') break;
        await sleep(this.#waitMs);
      }
    } catch (error) {
      // an answer of the query itself (a ServiceError such as not_found) is the read's answer:
      // the replica had replayed every commit made before the request
      if (isAnswer(error)) throw error;
      client.release(error as Error);
      released = true;
      return this.#onPrimary(read, 'failed', query);
    } finally {
      if (!released) client.release();
    }
    return this.#onPrimary(read, 'behind', query);
  }

  async #onPrimary<T>(read: ReadKind, reason: 'no_replica' | 'behind' | 'failed', query: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const answer = await query(this.primary);
    this.#served(read, { pool: 'primary', reason });
    return answer;
  }
}

/** The read pool's server: a standby, and how far it has replayed (null on a primary). */
const REPLAYED_SQL = 'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed';

/** A refusal the read itself decided (`ServiceError`, e.g. 404 `not_found`), not a failure of the replica. */
const isAnswer = (error: unknown) => (error as Error | undefined)?.name === 'ServiceError';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
