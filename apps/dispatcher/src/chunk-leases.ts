/**
 * How a chunk's deliveries become the sender's to attempt, and how they are given back without an
 * attempt (deliverer.ts decides when): the lease side of the ledger, over the statements of
 * delivery/delivery-leases.ts.
 *
 * - A delivery its post-commit notice carried (push-notice.ts, pushed-rows.ts) is already leased
 *   to this owner by its commit: while that lease leaves as long as a claim would take, it goes
 *   as the notice gave it, unclaimed, its record fenced by the commit's lease.
 * - Any other is claimed: a conditional UPDATE that sets `locked_until` (only a pending, due row
 *   can be claimed, unleased or under the push lease its holder names). So a delivery is never
 *   sent by two dispatchers at once, even when a job is run twice (crash recovery, manual retry,
 *   reconciler).
 *
 * Claims (and the settings reads of rows that waited) are group-committed (statement-batcher.ts):
 * each waits only for the statement of its kind already running, then everything that gathered
 * meanwhile goes in one statement.
 */
import type { Pool } from '@rtm/db';
import { materializeLogged } from './intake/delivery-log.ts';
import { claimDeliveries, deferDeliveries, releaseClaims, rescheduleUnclaimed, type ClaimedDelivery } from './delivery/delivery-leases.ts';
import { endpointSettings, endpointSettingsKey, type EndpointSettings } from './delivery/endpoint-settings.ts';
import { StatementBatcher } from './statement-batcher.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import { letGo, type HeldRow, type PushedRows } from './pushed-rows.ts';
import type { LogPositions } from './log-positions.ts';

/**
 * A row its notice carried is sent with the endpoint settings the commit read (its secrets and
 * rate limit) for this long after the notice came; one that waited longer has them read again.
 */
const NOTICE_SETTINGS_MS = 1_000;

/** What a settings read found for an endpoint that is gone. */
const ABSENT: EndpointSettings = { present: false, secrets: null, rate_limit: null, target_url: null };

/** A leased delivery held back instead of attempted, until `until` (epoch ms). */
export type Deferral = {
  row: ClaimedDelivery;
  until: number;
  reason: 'circuit_open' | 'concurrency' | 'rate' | 'endpoint_rate' | 'secret_unreadable' | 'endpoint_disabled';
};

/** Deferrals that wait in Postgres (until their time, or an enable), never in the owner's memory. */
export const WAITS_IN_LEDGER: ReadonlySet<Deferral['reason']> = new Set(['secret_unreadable', 'endpoint_disabled']);

export class ChunkLeases {
  readonly #pool: Pool;
  readonly #leaseMs: number;
  readonly #pushed: PushedRows | undefined;
  readonly #metrics: DeliveryMetrics;
  readonly #claims: StatementBatcher<[id: string, pushLease: string | null], Map<string, ClaimedDelivery>, ClaimedDelivery[]>;
  readonly #settings: StatementBatcher<string, Map<string, EndpointSettings>>;
  readonly #logged: LogPositions | undefined;
  /** Each endpoint's settings as last read (#settings), and when the read started. */
  readonly #read = new Map<string, { at: number; settings: EndpointSettings }>();

  /**
   * `leaseMs`: how long a claim leases a delivery for. `batching`: the group commit's bounds
   * (statements of a kind at once, deliveries per statement).
   */
  constructor(deps: {
    pool: Pool;
    leaseMs: number;
    pushed?: PushedRows;
    metrics: DeliveryMetrics;
    batching: { concurrency: number; maxItems: number };
    /** The deliveries of the log this owner holds (log-positions.ts). */
    logged?: LogPositions;
  }) {
    this.#pool = deps.pool;
    this.#logged = deps.logged;
    this.#leaseMs = deps.leaseMs;
    this.#pushed = deps.pushed;
    this.#metrics = deps.metrics;
    this.#claims = new StatementBatcher(
      (items) =>
        claimDeliveries(
          deps.pool,
          items.map(([id]) => id),
          this.#leaseMs,
          items.map(([, lease]) => lease),
        ),
      {
        ...deps.batching,
        // an id asked for by two callers in one statement (a job's and the push's) is claimed once:
        // its row goes to the first of them only, never sent twice at once by this process
        share: (rows, items) => {
          const mine: ClaimedDelivery[] = [];
          for (const [id] of items) {
            const row = rows.get(id);
            if (!row) continue;
            rows.delete(id);
            mine.push(row);
          }
          return mine;
        },
      },
    );
    this.#settings = new StatementBatcher((keys) => endpointSettings(deps.pool, keys), deps.batching);
  }

  /**
   * The chunk's deliveries, leased to this caller. One a notice carried whose commit lease still
   * leaves as long as a claim would lease it for goes as the notice gave it, unclaimed: with the
   * endpoint settings (secrets, rate limit) the commit read, within NOTICE_SETTINGS_MS of the
   * notice; after that they are read again as a claim reads them (#settings, the endpoint's
   * current URL included), and one whose endpoint is gone is left out (its rows went with it). The others are claimed (#claims), a
   * push lease this owner holds renewed by the claim. `held`: the rows sent unclaimed, by id.
   */
  async take(chunk: readonly string[]): Promise<{ rows: ClaimedDelivery[]; held: Map<string, HeldRow> }> {
    const now = Date.now();
    const held = new Map<string, HeldRow>();
    const stale: string[] = [];
    const claim: [string, string | null][] = [];
    // settings read within NOTICE_SETTINGS_MS serve every row of their endpoint (a backlog reads
    // each endpoint's once a second, not once per chunk)
    const settings = new Map<string, EndpointSettings>();
    for (const id of chunk) {
      const row = this.#pushed?.take(id);
      if (row && this.#pushed!.usable(row, now)) {
        held.set(id, row);
        if (now - row.arrived > NOTICE_SETTINGS_MS) {
          const key = endpointSettingsKey(row.environmentId, row.row.endpointId);
          const read = this.#read.get(key);
          if (read && now - read.at <= NOTICE_SETTINGS_MS) settings.set(key, read.settings);
          else if (!settings.has(key)) stale.push(key);
        }
      } else claim.push([id, row?.row.lease ?? this.#pushed?.inherited(id) ?? null]);
    }
    const [claimed, fresh] = await Promise.all([claim.length > 0 ? this.#claims.add(claim) : [], stale.length > 0 ? this.#settings.add(stale) : undefined]);
    if (fresh) {
      if (this.#read.size > 10_000) this.#read.clear();
      for (const key of stale) {
        const found = fresh.get(key);
        if (found) settings.set(key, found);
        // read no earlier than `now`: good for NOTICE_SETTINGS_MS from then (an endpoint gone too)
        this.#read.set(key, { at: now, settings: found ?? ABSENT });
      }
    }
    const rows = [...claimed];
    for (const [id, { environmentId, row, arrived }] of held) {
      let { secrets, rateLimit } = row;
      let target: string | null = row.url;
      if (now - arrived > NOTICE_SETTINGS_MS) {
        const found = settings.get(endpointSettingsKey(environmentId, row.endpointId));
        if (!found?.present) {
          held.delete(id);
          // a delivery of the log went with its endpoint: nothing to send, nothing to wait for
          if (row.logged) this.#logged?.done([id]);
          continue;
        }
        // its URL as it is now too (changed, or the endpoint disabled: null)
        ({ secrets, rate_limit: rateLimit, target_url: target } = found);
      }
      rows.push({
        id,
        environment_id: environmentId,
        endpoint_id: row.endpointId,
        event_id: row.eventId,
        event_type: row.eventType,
        url: target ?? row.url,
        body: row.body,
        attempts: 0,
        lease: row.lease,
        secrets,
        rate_limit: rateLimit,
        target_url: target,
        ...(row.logged && { logged: row.logged }),
      });
    }
    if (held.size > 0) this.#metrics.leased.inc({ by: 'notice' }, held.size);
    if (claimed.length > 0) this.#metrics.leased.inc({ by: 'claim' }, claimed.length);
    return { rows, held };
  }

  /**
   * Deliveries a caller could not lease: still pending but leased elsewhere, not yet due, or
   * row-locked at that moment (skip locked: e.g. a retry request reading it). Puts their job at
   * the time the row says, at least a second from now (a job that ran early, or a lease that may
   * belong to a dead dispatcher, is looked at again then). Delivered or dropped ones need nothing.
   */
  async reschedule(ids: readonly string[]): Promise<void> {
    await rescheduleUnclaimed(this.#pool, ids);
  }

  /**
   * Lets go of leases not used (the deliveries wait in memory again), fenced by the lease like a
   * record. A row a notice carried (`held`) keeps its commit's lease, and is held again.
   */
  async release(rows: readonly ClaimedDelivery[], held: ReadonlyMap<string, HeldRow>): Promise<void> {
    this.#metrics.requeued.inc(rows.length);
    const claimed = rows.filter((row) => {
      const kept = held.get(row.id);
      if (kept) this.#pushed?.putBack(row.id, kept);
      return !kept;
    });
    if (claimed.length > 0) await releaseClaims(this.#pool, claimed);
  }

  /**
   * Puts deferred deliveries back: lease released, `next_attempt_at` and the keyed job at the
   * deferral's time, `attempts` unchanged. Fenced by the lease like a record.
   */
  async defer(deferrals: readonly Deferral[]): Promise<void> {
    if (deferrals.length === 0) return;
    for (const deferral of deferrals) this.#metrics.deferred.inc({ reason: deferral.reason });
    // a delivery of the log waits in the ledger as any other: made a ledger row first, leased
    // to this caller, and deferred under that lease
    const logged = deferrals.filter((d) => d.row.logged);
    const leases = await materializeLogged(
      this.#pool,
      logged.map((d) => ({ id: d.row.id, environmentId: d.row.environment_id, createdAt: d.row.logged!.createdAt })),
      this.#leaseMs,
    );
    this.#logged?.done(logged.map((d) => d.row.id));
    const ready = deferrals.flatMap((d) => {
      if (!d.row.logged) return [{ id: d.row.id, until: d.until, lease: d.row.lease }];
      const lease = leases.get(d.row.id);
      return lease === undefined ? [] : [{ id: d.row.id, until: d.until, lease }];
    });
    await deferDeliveries(this.#pool, ready);
  }

  /**
   * Push leases of deliveries handed back unsent (draining), released so that whoever takes them
   * claims them at once. Deliveries of the log among them are let go (`forget`): the next owner
   * reads them from the log. Returns the ids that are ledger rows (to hand back as a job).
   */
  async letGo(ids: readonly string[]): Promise<string[]> {
    const { held, ledger } = letGo(ids, this.#pushed, this.#logged);
    if (held.length > 0) await releaseClaims(this.#pool, held);
    return ledger;
  }
}
