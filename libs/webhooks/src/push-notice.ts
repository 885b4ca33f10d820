/**
 * The post-commit notice (docs/webhooks.md, "First attempts"): what a channel-node publishes to
 * the owner of a webhook partition after a commit that recorded deliveries without a job, and how
 * the owner reads it. Both sides use this file, so the format has one definition.
 *
 * A notice is a JSON array of entries, one per delivery:
 * - `[id, environmentId]`: a wake-up only; the owner claims the row to learn what to send (a job's
 *   deliveries forwarded to their owner, a notice of an older channel-node);
 * - `[id, environmentId, lease, leaseMs, endpointId, url, eventType, eventId, body, secrets,
 *   rateLimit]`: the row as committed, leased to the partition's owner (`lease`: its
 *   `locked_until` as Postgres prints it, `leaseMs`: the lease's length), with its endpoint's
 *   signing secrets as stored (encrypted, as a claim reads them) and own rate limit as the commit
 *   read them. The owner sends it from this, without a claim, while the lease leaves room for the
 *   send, and its record is fenced by `lease` like a claim's;
 * - `[id, environmentId, "log", tx, createdAt, endpointId, url, eventType, eventId, body, secrets,
 *   rateLimit]`: a row of the delivery log (docs/webhooks.md, "The delivery log") as committed,
 *   with its transaction's id and its `created_at` as Postgres prints them: no lease; the owner
 *   sends it from this and records its outcome;
 * - `[id, environmentId, "withdrawn"]`: the delivery's message was retracted or deleted and the
 *   delivery cancelled (redaction.ts) while it was leased: the owner lets go of the row it holds
 *   for it, unsent. (A dispatcher that does not know this form takes it for a wake-up, whose
 *   claim finds the row no longer pending: nothing is sent either way once the row is claimed.)
 *
 * The row stays the truth: a lost notice is found in the ledger once its lease has lapsed.
 */
import { SETTINGS_COLUMNS, type StoredSecrets } from './endpoint-settings.ts';

/** A delivery as a notice carries it; `pushed` when it carries the row itself. */
export interface NoticeDelivery {
  id: string;
  environmentId: string;
  /** The row itself; with `logged`, a row of the delivery log (no lease). */
  pushed?: PushedRow;
  /** The delivery was cancelled (its message retracted or deleted): nothing to send. */
  withdrawn?: true;
}

const WITHDRAWN = 'withdrawn';
const LOGGED = 'log';

/** Notice entries that withdraw cancelled deliveries (redaction.ts) from their owner's memory. */
export const withdrawnEntries = (deliveries: readonly { id: string; environmentId: string }[]): NoticeDelivery[] =>
  deliveries.map(({ id, environmentId }) => ({ id, environmentId, withdrawn: true }));

/**
 * What the commit wrote and a send needs, and the lease that fences the record; for a row of the
 * delivery log, `logged` instead (its `lease` is '' and its `leaseMs` Infinity: nothing to lapse).
 */
export interface PushedRow {
  lease: string;
  leaseMs: number;
  /** A row of `webhook_log`: its transaction's id and its `created_at`, as Postgres prints them. */
  logged?: LoggedPosition;
  endpointId: string | null;
  url: string;
  eventType: string;
  eventId: string;
  body: string;
  /** The endpoint's signing secrets as stored (encrypted), null when it has none. */
  secrets: StoredSecrets | null;
  /** The endpoint's own rate limit (sends per second); null: none, or the default endpoint. */
  rateLimit: number | null;
}

/** Where a row of the delivery log stands: its transaction's id (xid8 as text) and its `created_at`. */
export interface LoggedPosition {
  tx: string;
  createdAt: string;
}

/**
 * The deliveries of a statement built with `enqueueSql(…, false)`, as the notice needs them: a
 * JSON array of `[id, environment_id, endpoint_id, url, event_id, event_type, lease, secrets,
 * rate_limit]`, the endpoint's settings read in the commit's own snapshot.
 */
export const PUSHED_SQL = `(select coalesce(json_agg(json_build_array(d.id, d.environment_id, d.endpoint_id, d.url, d.event_id, d.event_type, d.lease, s.secrets, s.rate_limit)), '[]')
       from deliveries d cross join lateral (select ${SETTINGS_COLUMNS('d')}) s)`;

/** A row of the delivery log as a pushed row: no lease to lapse, its position instead. */
export function loggedRow(row: Omit<PushedRow, 'lease' | 'leaseMs' | 'logged'>, logged: LoggedPosition): PushedRow {
  return { lease: '', leaseMs: Infinity, logged, ...row };
}

/**
 * The deliveries of a statement built with `logSql` (enqueue.ts), as the notice needs them: a JSON
 * array of `[id, environment_id, endpoint_id, url, event_id, event_type, tx, created_at, secrets,
 * rate_limit]`, the endpoint's settings read in the commit's own snapshot.
 */
export const LOGGED_SQL = `(select coalesce(json_agg(json_build_array(d.id, d.environment_id, d.endpoint_id, d.url, d.event_id, d.event_type, d.tx, d.created_at, s.secrets, s.rate_limit)), '[]')
       from deliveries d cross join lateral (select ${SETTINGS_COLUMNS('d')}) s)`;

/**
 * The rows LOGGED_SQL read as the deliveries a notice announces, each with its row (`bodyOf`, by
 * event id: webhookBody). One whose body is too large to carry is left out: its partition's owner
 * reads it from the log (its catch-up, within a second).
 */
export function loggedDeliveries(rows: readonly unknown[][], bodyOf: (eventId: string) => string | undefined): NoticeDelivery[] {
  type Row = [string, string, string | null, string, string, string, string, string, StoredSecrets | null, number | null];
  const deliveries: NoticeDelivery[] = [];
  for (const [id, environmentId, endpointId, url, eventId, eventType, tx, createdAt, secrets, rateLimit] of rows as Row[]) {
    const body = bodyOf(eventId);
    if (body === undefined || body.length > MAX_PUSHED_BODY) continue;
    deliveries.push({
      id,
      environmentId,
      pushed: loggedRow({ endpointId, url, eventType, eventId, body, secrets: secrets ?? null, rateLimit: rateLimit ?? null }, { tx, createdAt }),
    });
  }
  return deliveries;
}

/** A body larger than this goes as a wake-up only (the owner reads it with its claim). */
const MAX_PUSHED_BODY = 128 * 1024;
/** Body characters per notice at most (NATS's payload limit is 1 MB by default). */
const MAX_NOTICE_BODIES = 256 * 1024;

/**
 * The rows PUSHED_SQL read (`rows`) as the deliveries a notice announces: with the row itself
 * when it was leased and its body (`bodyOf`, by event id: webhookBody) is not too large to carry.
 */
export function committedDeliveries(rows: readonly unknown[][], bodyOf: (eventId: string) => string | undefined, leaseMs: number): NoticeDelivery[] {
  type Row = [string, string, string | null, string, string, string, string | null, StoredSecrets | null, number | null];
  return (rows as Row[]).map(([id, environmentId, endpointId, url, eventId, eventType, lease, secrets, rateLimit]) => {
    const body = lease === null ? undefined : bodyOf(eventId);
    if (lease === null || body === undefined || body.length > MAX_PUSHED_BODY) return { id, environmentId };
    return { id, environmentId, pushed: { lease, leaseMs, endpointId, url, eventType, eventId, body, secrets: secrets ?? null, rateLimit: rateLimit ?? null } };
  });
}

/**
 * Deliveries as notice entries, grouped by webhook partition (`partitionOf`), each group split so
 * that no notice carries more than MAX_NOTICE_BODIES of bodies.
 */
export function pushNotices(
  deliveries: readonly NoticeDelivery[],
  partitionOf: (environmentId: string) => number,
): { partition: number; entries: unknown[][] }[] {
  const open = new Map<number, { entries: unknown[][]; size: number }>();
  const notices: { partition: number; entries: unknown[][] }[] = [];
  for (const { id, environmentId, pushed, withdrawn } of deliveries) {
    const partition = partitionOf(environmentId);
    const size = pushed ? pushed.body.length : 0;
    let notice = open.get(partition);
    if (notice && size > 0 && notice.size + size > MAX_NOTICE_BODIES) notice = undefined;
    if (!notice) {
      notice = { entries: [], size: 0 };
      open.set(partition, notice);
      notices.push({ partition, entries: notice.entries });
    }
    notice.size += size;
    notice.entries.push(
      withdrawn
        ? [id, environmentId, WITHDRAWN]
        : pushed?.logged
          ? [
              id,
              environmentId,
              LOGGED,
              pushed.logged.tx,
              pushed.logged.createdAt,
              pushed.endpointId,
              pushed.url,
              pushed.eventType,
              pushed.eventId,
              pushed.body,
              pushed.secrets,
              pushed.rateLimit,
            ]
          : pushed
            ? [
                id,
                environmentId,
                pushed.lease,
                pushed.leaseMs,
                pushed.endpointId,
                pushed.url,
                pushed.eventType,
                pushed.eventId,
                pushed.body,
                pushed.secrets,
                pushed.rateLimit,
              ]
            : [id, environmentId],
    );
  }
  return notices;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStoredSecrets = (value: unknown): value is StoredSecrets => {
  if (typeof value !== 'object' || value === null) return false;
  const { secret, previous_secret: previous, rotated_at: rotatedAt } = value as Record<string, unknown>;
  return isString(secret) && (previous === null || isString(previous)) && (rotatedAt === null || isString(rotatedAt));
};

/**
 * The deliveries of a notice's decoded body. An entry that is not one of the two forms is left
 * out (a wake-up whose extra fields are malformed still counts as a wake-up); a body that is not
 * an array has none.
 */
export function readNotice(body: unknown): NoticeDelivery[] {
  if (!Array.isArray(body)) return [];
  const deliveries: NoticeDelivery[] = [];
  for (const entry of body) {
    if (!Array.isArray(entry) || !isString(entry[0]) || !isString(entry[1])) continue;
    const id = entry[0] as string;
    const environmentId = entry[1] as string;
    if (entry.length === 3 && entry[2] === WITHDRAWN) {
      deliveries.push({ id, environmentId, withdrawn: true });
      continue;
    }
    if (entry.length === 12 && entry[2] === LOGGED) {
      const [, , , tx, createdAt, endpointId, url, eventType, eventId, content, secrets, rateLimit] = entry as unknown[];
      if (
        isString(tx) &&
        /^[0-9]+$/.test(tx) &&
        isString(createdAt) &&
        (endpointId === null || isString(endpointId)) &&
        isString(url) &&
        isString(eventType) &&
        isString(eventId) &&
        isString(content) &&
        (secrets === null || isStoredSecrets(secrets)) &&
        (rateLimit === null || (typeof rateLimit === 'number' && rateLimit > 0))
      ) {
        deliveries.push({
          id,
          environmentId,
          pushed: loggedRow(
            { endpointId: endpointId as string | null, url, eventType, eventId, body: content, secrets, rateLimit: rateLimit as number | null },
            { tx, createdAt },
          ),
        });
      }
      // a malformed log entry is no wake-up: there is no ledger row to claim; the catch-up reads it
      continue;
    }
    const [, , lease, leaseMs, endpointId, url, eventType, eventId, content, secrets, rateLimit] = entry as unknown[];
    const pushed =
      entry.length === 11 &&
      isString(lease) &&
      typeof leaseMs === 'number' &&
      leaseMs > 0 &&
      (endpointId === null || isString(endpointId)) &&
      isString(url) &&
      isString(eventType) &&
      isString(eventId) &&
      isString(content) &&
      (secrets === null || isStoredSecrets(secrets)) &&
      (rateLimit === null || (typeof rateLimit === 'number' && rateLimit > 0));
    deliveries.push(
      pushed
        ? {
            id,
            environmentId,
            pushed: {
              lease,
              leaseMs,
              endpointId: endpointId as string | null,
              url,
              eventType,
              eventId,
              body: content,
              secrets,
              rateLimit: rateLimit as number | null,
            },
          }
        : { id, environmentId },
    );
  }
  return deliveries;
}
