/**
 * The owner's reads of the delivery log (docs/webhooks.md, "The delivery log"; the statements in
 * intake/delivery-log.ts), every LOG_READ_MS and when it takes a partition: the rows of
 * its partitions above where it has read, without a durable outcome, that it does not hold (their
 * notice lost, or never sent: a body too large to carry) join its memory queues like a notice's;
 * then each partition's position is stored (log-positions.ts decides where it may stand).
 */
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { Counter, type Registry } from 'prom-client';
import { counterSpec } from '@rtm/ops';
import { loggedRow } from '@rtm/webhooks';
import { advanceLogPositions, logAbove, logRows } from './intake/delivery-log.ts';
import type { LogPositions } from './log-positions.ts';
import type { PushedRows } from './pushed-rows.ts';
import type { Delivery } from './push-notices.ts';

/**
 * How often the owner reads the delivery log above where it stands, and stores its position: a
 * row whose notice was lost (or never sent: a body too large to carry) waits about this long.
 */
const LOG_READ_MS = 1_000;
/** Rows of the log read at most per pass. */
const LOG_READ_ROWS = 5_000;

/** What the reader needs of the owner's intake (push-intake.ts). */
export interface LogReaderIntake {
  /** The partitions whose notices this dispatcher takes. */
  partitions(): number[];
  owns(partition: number): boolean;
  /** Whether a delivery waits in memory already. */
  has(id: string): boolean;
  /** Deliveries the memory may still take. */
  room(): number;
  /** Queues deliveries to send. */
  push(deliveries: readonly Delivery[]): void;
  stopped(): boolean;
}

export class LogReader {
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #logged: LogPositions;
  readonly #pushed: PushedRows;
  readonly #intake: LogReaderIntake;
  readonly #fromLog: Counter;
  #timer: NodeJS.Timeout | undefined;
  #reading = false;

  constructor(deps: { pool: Pool; log: Logger; metrics: Registry; logged: LogPositions; pushed: PushedRows; intake: LogReaderIntake }) {
    this.#pool = deps.pool;
    this.#log = deps.log;
    this.#logged = deps.logged;
    this.#pushed = deps.pushed;
    this.#intake = deps.intake;
    this.#fromLog = new Counter({
      ...counterSpec('webhook_log_read_total'),
      registers: [deps.metrics],
    });
  }

  start(): void {
    this.#timer = setInterval(() => void this.read(), LOG_READ_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /**
   * One read of the delivery log (docs/webhooks.md, "The delivery log"): the rows of the owned
   * partitions above where this owner has read, without a durable outcome, that it does not hold
   * (their notice lost, or never sent) are queued; then the position of each partition is stored:
   * the lesser of what has been read and the least position of a delivery held without an
   * outcome, so a next owner reading from there misses nothing.
   */
  async read(): Promise<void> {
    const intake = this.#intake;
    if (this.#reading || intake.stopped()) return;
    const partitions = intake.partitions().filter((partition) => this.#logged.owns(partition));
    if (partitions.length === 0) return;
    this.#reading = true;
    try {
      const from = partitions.map((partition) => this.#logged.scanned(partition)!);
      this.#logged.watch();
      const { rows, below } = await logAbove(this.#pool, partitions, from, LOG_READ_ROWS);
      // rows are in position order across the partitions: with a full page, everything below the
      // last one was read (rows of its transaction beyond the page come again, and are skipped)
      let readTo = rows.length === LOG_READ_ROWS ? rows[rows.length - 1]!.tx : below;
      // the rows this owner does not hold (their notice lost, or never sent), up to its memory's room
      const missing = [];
      for (const place of rows) {
        if (!intake.owns(place.partition) || !this.#logged.owns(place.partition)) continue;
        if (intake.has(place.id) || this.#logged.holds(place.id) || this.#logged.doneDuringRead(place.id)) continue;
        if (missing.length >= intake.room()) {
          readTo = place.tx;
          break;
        }
        missing.push(place);
      }
      const found: Delivery[] = [];
      for (const row of await logRows(this.#pool, missing)) {
        if (intake.has(row.id) || this.#logged.holds(row.id) || this.#logged.doneDuringRead(row.id)) continue;
        if (!this.#logged.track(row.id, row.partition, row.tx)) continue;
        this.#pushed.add([
          {
            id: row.id,
            environmentId: row.environment_id,
            pushed: loggedRow(
              {
                endpointId: row.endpoint_id,
                url: row.url,
                eventType: row.event_type,
                eventId: row.event_id,
                body: row.body,
                secrets: row.secrets,
                rateLimit: row.rate_limit,
              },
              { tx: row.tx, createdAt: row.created_at },
            ),
          },
        ]);
        found.push([row.id, row.environment_id]);
      }
      for (const partition of partitions) this.#logged.scannedTo(partition, readTo);
      if (found.length > 0) {
        this.#fromLog.inc(found.length);
        intake.push(found);
      }
      const positions = this.#logged.positions();
      for (const partition of positions.keys()) if (!intake.owns(partition)) positions.delete(partition);
      await advanceLogPositions(this.#pool, positions);
    } catch (error) {
      this.#log.warn({ err: error }, 'could not read the delivery log');
    } finally {
      this.#logged.unwatch();
      this.#reading = false;
    }
  }
}
