/**
 * Writes a meter's deltas every USAGE_FLUSH_MS: one statement (atomic on its own, so one
 * transaction) that records the flush as `usage_flushes(source, flush)` and adds every row to
 * `usage_minutes`, only if that flush was not recorded before. A flush that failed is kept and
 * written again with the same number (new counts wait for the next one): when its outcome was
 * unknown (the connection died after the commit was sent) and it had in fact committed, the
 * repeat finds its row and adds nothing, so nothing is counted twice; when it had not, the
 * repeat writes it. On shutdown the last counts are taken and written.
 */
import { randomBytes } from 'node:crypto';
import { USAGE_COLUMNS } from './columns.ts';
import type { UsageMeter, UsageRow } from './meter.ts';

/** What the flusher writes with (a pg Pool or client). */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rowCount: number | null }>;
}

export interface FlusherOptions {
  db: Queryable;
  meter: UsageMeter;
  flushMs: number;
  /** This process's id in `usage_flushes` (random per start unless given). */
  source?: string;
  log?: { warn(details: object, message: string): void };
  /** Flushes by outcome: written, repeated (found already committed), failed. */
  flushes?: { inc(labels: { outcome: 'written' | 'repeated' | 'failed' }): void };
}

const SET = USAGE_COLUMNS.map((c) => `${c} = usage_minutes.${c} + excluded.${c}`).join(', ');
const COLUMN_ARRAYS = USAGE_COLUMNS.map((_, i) => `$${i + 5}::bigint[]`).join(', ');

/**
 * $1 source, $2 flush, $3 environment ids, $4 minutes (epoch ms), then one array per column. The
 * rows are added only when the flush's row is new; none are when it was there (a repeat).
 */
export const FLUSH_SQL = `
with flush as (
  insert into usage_flushes (source, flush) values ($1, $2) on conflict do nothing returning 1
)
insert into usage_minutes (environment_id, at, ${USAGE_COLUMNS.join(', ')})
select e, to_timestamp(m::double precision / 1000), ${USAGE_COLUMNS.map((_, i) => `c${i}`).join(', ')}
from unnest($3::text[], $4::bigint[], ${COLUMN_ARRAYS}) as u(e, m, ${USAGE_COLUMNS.map((_, i) => `c${i}`).join(', ')})
where exists (select 1 from flush)
on conflict (environment_id, at) do update set ${SET}`;

/** One flush's parameters: the rows as arrays, one per column. */
export function flushParams(source: string, flush: number, rows: readonly UsageRow[]): unknown[] {
  const columns = USAGE_COLUMNS.map((_, i) => rows.map((r) => r.values[i]!));
  return [source, flush, rows.map((r) => r.environmentId), rows.map((r) => r.at), ...columns];
}

export class UsageFlusher {
  readonly source: string;
  readonly #options: FlusherOptions;
  #pending: { flush: number; rows: UsageRow[] } | undefined;
  #next = 1;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<boolean> | undefined;
  /** The last flush found nothing to write. */
  #empty = false;

  constructor(options: FlusherOptions) {
    this.#options = options;
    this.source = options.source ?? `${process.pid}-${randomBytes(8).toString('hex')}`;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.tick(), this.#options.flushMs);
    this.#timer.unref();
  }

  /** The period's work: carry connections forward, and write unless a write is still under way. */
  tick(): void {
    this.#options.meter.touch();
    if (this.#running) return;
    void this.flush();
  }

  /** Writes the pending flush (a failed one again) or takes and writes a new one; false on failure. */
  flush(): Promise<boolean> {
    if (this.#running) return this.#running;
    const running = this.#flushOnce().finally(() => {
      this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  /** Stops the timer and writes what is left (a failed flush, then the rest): called on graceful shutdown. */
  async stop(attempts = 3): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#running) await this.#running;
    for (let failures = 0; failures < attempts; ) {
      if (!(await this.flush())) failures += 1;
      else if (this.#empty) return;
    }
  }

  /** Rows taken from the meter and not yet written (what a kill -9 now would lose). */
  get pendingRows(): number {
    return this.#pending?.rows.length ?? 0;
  }

  async #flushOnce(): Promise<boolean> {
    if (!this.#pending) {
      const rows = this.#options.meter.take();
      this.#empty = rows.length === 0;
      if (this.#empty) return true;
      this.#pending = { flush: this.#next++, rows };
    }
    this.#empty = false;
    const { flush, rows } = this.#pending;
    try {
      const result = await this.#options.db.query(FLUSH_SQL, flushParams(this.source, flush, rows));
      this.#pending = undefined;
      this.#options.flushes?.inc({ outcome: result.rowCount === 0 ? 'repeated' : 'written' });
      return true;
    } catch (error) {
      this.#options.flushes?.inc({ outcome: 'failed' });
      this.#options.log?.warn({ err: error, source: this.source, flush, rows: rows.length }, 'usage flush failed; kept and written again next time');
      return false;
    }
  }
}
