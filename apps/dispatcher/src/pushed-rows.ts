/**
 * The rows the post-commit notices carried (push-notice.ts in libs/webhooks), kept by the
 * partition's owner from the notice until their delivery is handed to a send. A row was committed
 * leased to this owner: while enough of that lease is left, the deliverer sends it as it is,
 * without a claim, and records it fenced by the commit's lease (delivery/delivery-life.ts).
 *
 * The lease is counted on this process's clock from the notice's arrival, less SLACK_MS for the
 * commit's own duration and the notice's way here (the commit began the lease a little earlier),
 * so no clock is compared with Postgres's. A row is usable while that leaves at least as long as
 * a claim would lease it for (`sendLeaseMs`: the timeout and a margin); one held past that point
 * is let go (`expired`: its owner releases its lease, and it waits as an id, to be claimed like
 * any other), so no row waits in memory under a lapsed lease. Bodies are kept up to MAX_BYTES; a
 * delivery beyond waits as an id only.
 */
import type { NoticeDelivery, PushedRow } from '@rtm/webhooks';
import type { LogPositions } from './log-positions.ts';

/** Of the lease, what the commit and the notice's way may have used before it arrived. */
export const SLACK_MS = 2_000;
/** Body characters kept at most (about twice as many bytes). */
const MAX_BYTES = 64 * 1024 * 1024;

export interface HeldRow {
  environmentId: string;
  row: PushedRow;
  /** When the notice arrived, on this process's clock. */
  arrived: number;
  /** When the commit's lease ends at the earliest, on this process's clock. */
  until: number;
}

export class PushedRows {
  readonly #rows = new Map<string, HeldRow>();
  /**
   * Leases of a predecessor that died (push-intake.ts' `own` of an orphaned partition), by id:
   * the claim takes each row as if unleased when its lease is still this one.
   */
  readonly #inherited = new Map<string, string>();
  readonly #sendLeaseMs: number;
  #bytes = 0;

  constructor(sendLeaseMs: number) {
    this.#sendLeaseMs = sendLeaseMs;
  }

  /** Whether a send may start now under the row's commit lease (it ends within a claim's lease). */
  usable(held: HeldRow, now = Date.now()): boolean {
    return held.until - now >= this.#sendLeaseMs;
  }

  /** Rows held. */
  get size(): number {
    return this.#rows.size;
  }

  /** Keeps the rows among a notice's deliveries that arrived `now`, while the budget allows. */
  add(deliveries: readonly NoticeDelivery[], now = Date.now()): void {
    for (const { id, environmentId, pushed } of deliveries) {
      // a row of the log is always kept: it is the only way to send it (there is no ledger row to
      // claim); the intake's bound on deliveries queued bounds them
      if (!pushed || this.#rows.has(id) || (!pushed.logged && this.#bytes + pushed.body.length > MAX_BYTES)) continue;
      this.#keep(id, { environmentId, row: pushed, arrived: now, until: now + pushed.leaseMs - SLACK_MS });
    }
  }

  /** Leases a dead predecessor held (`lease` null: none), claimed over as if the rows were unleased. */
  inherit(rows: readonly { id: string; lease: string | null }[]): void {
    for (const { id, lease } of rows) if (lease !== null) this.#inherited.set(id, lease);
  }

  /** The dead predecessor's lease on `id` (undefined: none), let go. */
  inherited(id: string): string | undefined {
    const lease = this.#inherited.get(id);
    if (lease !== undefined) this.#inherited.delete(id);
    return lease;
  }

  /** The row held for `id`, let go (undefined when none: the delivery is claimed). */
  take(id: string): HeldRow | undefined {
    const held = this.#rows.get(id);
    if (!held) return undefined;
    this.#rows.delete(id);
    this.#bytes -= held.row.body.length;
    return held;
  }

  /** A row taken whose delivery did not go after all (its endpoint had no room): held again. */
  putBack(id: string, held: HeldRow): void {
    if (!this.#rows.has(id)) this.#keep(id, held);
  }

  /** Whether `id` is held as a row of the delivery log. */
  logged(id: string): boolean {
    return this.#rows.get(id)?.row.logged !== undefined;
  }

  /**
   * Lets go of the rows of `ids` (handed back, or no longer owned); the leased ones that were held,
   * with their leases, to release (a row of the log has none).
   */
  drop(ids: readonly string[]): { id: string; lease: string }[] {
    const dropped: { id: string; lease: string }[] = [];
    for (const id of ids) {
      const held = this.take(id);
      if (held?.row.logged) continue;
      const lease = held?.row.lease ?? this.inherited(id);
      if (lease !== undefined) dropped.push({ id, lease });
    }
    return dropped;
  }

  /** Lets go of the rows no longer usable; their ids and leases (to release). */
  expired(now = Date.now()): { id: string; lease: string }[] {
    const expired: { id: string; lease: string }[] = [];
    for (const [id, held] of this.#rows) {
      if (this.usable(held, now)) continue;
      this.take(id);
      expired.push({ id, lease: held.row.lease });
    }
    return expired;
  }

  #keep(id: string, held: HeldRow): void {
    this.#rows.set(id, held);
    this.#bytes += held.row.body.length;
  }
}

/**
 * Lets go of deliveries not sent (handed back, no longer owned, draining): the rows held for them
 * dropped, and those of the delivery log forgotten by the positions (they have no ledger row to
 * hand back: the next read of the log finds them). `held`: the push leases to release; `ledger`:
 * the ids that are ledger rows, to hand back as a job.
 */
export function letGo(
  ids: readonly string[],
  pushed: PushedRows | undefined,
  logged: Pick<LogPositions, 'holds' | 'forget'> | undefined,
): { held: { id: string; lease: string }[]; ledger: string[] } {
  const ofLog = new Set(ids.filter((id) => pushed?.logged(id) || logged?.holds(id)));
  const held = pushed?.drop(ids) ?? [];
  logged?.forget([...ofLog]);
  return { held, ledger: ids.filter((id) => !ofLog.has(id)) };
}
