/**
 * What an attempt's result means for its delivery (delivery/delivery-life.ts), without I/O: the
 * delivery's new state and the wait before its next attempt, the row the ledger records for it, the
 * live-log events it is announced with, and the keys by which its endpoint's circuit and
 * concurrency places are counted.
 */
import type { LogLevel } from '@rtm/bus';
import { redactWebhookUrl } from '@rtm/webhooks';
import type { AttemptRecord, ClaimedDelivery } from './delivery/delivery-leases.ts';
import type { SendResult } from './send-webhook.ts';

/** A receiver answering 410 Gone stops the retries of that delivery (dropped, lastError `status 410`). */
const GONE = 410;

export interface Outcome {
  row: ClaimedDelivery;
  /** This attempt's number (1-based). */
  n: number;
  at: Date;
  result: SendResult;
  status: 'delivered' | 'dropped' | 'pending';
  /** Milliseconds until the next attempt, for a delivery that stays pending. */
  delay: number | null;
}

/**
 * The outcome of an attempt that started `at` and ended with `result`: delivered on success;
 * otherwise pending until the next step of `schedule` (the wait after attempt n is its n-th
 * entry), dropped once the schedule is used up or when the receiver answered 410 Gone.
 */
export function settleAttempt(row: ClaimedDelivery, at: Date, result: SendResult, schedule: readonly number[]): Outcome {
  const n = row.attempts + 1;
  const gone = result.statusCode === GONE;
  const delay = result.ok || gone ? null : (schedule[n - 1] ?? null);
  const status = result.ok ? 'delivered' : delay === null ? 'dropped' : 'pending';
  return { row, n, at, result, status, delay };
}

/** The ledger's record of an outcome (recordAttempts in delivery/delivery-leases.ts, fenced by the claim's lease). */
export function attemptRecord(outcome: Outcome): AttemptRecord {
  const { row, n, at, result, status, delay } = outcome;
  return {
    id: row.id,
    n,
    at,
    statusCode: result.statusCode ?? null,
    error: result.error ?? null,
    durationMs: result.durationMs,
    status,
    delay,
    lease: row.lease,
    eventType: row.event_type,
  };
}

export interface LogEntry {
  level: LogLevel;
  event: string;
  data: Record<string, unknown>;
}

/**
 * The live-log events of recorded outcomes, per environment (each environment's go as one bus
 * message): every attempt, then `webhook.delivered` or `webhook.dropped` when it ended the delivery.
 * `listened`: whether anyone listens to an environment's live log (the others' events are not built).
 */
export function attemptLogs(outcomes: readonly Outcome[], listened: (environmentId: string) => boolean = () => true): Map<string, LogEntry[]> {
  const byEnvironment = new Map<string, LogEntry[]>();
  for (const { row, n, result, status } of outcomes) {
    // built only for an environment someone listens to (log-interest.ts in libs/bus)
    if (!listened(row.environment_id)) continue;
    let entries = byEnvironment.get(row.environment_id);
    if (!entries) byEnvironment.set(row.environment_id, (entries = []));
    const common = { deliveryId: row.id, eventId: row.event_id, eventType: row.event_type, url: redactWebhookUrl(row.url), attempt: n };
    entries.push({
      level: result.ok ? 'info' : 'warn',
      event: 'webhook.attempt',
      data: { ...common, statusCode: result.statusCode ?? null, durationMs: result.durationMs, ...(result.error !== undefined && { error: result.error }) },
    });
    if (status === 'delivered') entries.push({ level: 'info', event: 'webhook.delivered', data: common });
    if (status === 'dropped') entries.push({ level: 'error', event: 'webhook.dropped', data: { ...common, lastError: result.error ?? null } });
  }
  return byEnvironment;
}

/** The process log's line for an attempt that failed (failedAttemptLine). */
export interface FailedAttemptLine {
  deliveryId: string;
  /** null: the environment's default endpoint (its configuration's URL). */
  endpointId: string | null;
  eventType: string;
  attempt: number;
  /** What went wrong: the receiver's status, or the class of failure (timeout, refused, …). */
  statusCode: number | null;
  error: string | null;
  /** When the next attempt is due, or that there is none (`dropped`). */
  nextAttemptAt?: string;
  dropped?: true;
  url: string;
}

/**
 * What the process log says of a failed attempt (the operator's view; the tenant's is the live
 * log above): never the body or a secret, and the URL redacted as every log shows it.
 * Null for an attempt that delivered.
 */
export function failedAttemptLine(outcome: Outcome): FailedAttemptLine | null {
  const { row, n, at, result, status, delay } = outcome;
  if (result.ok) return null;
  const line: FailedAttemptLine = {
    deliveryId: row.id,
    endpointId: row.endpoint_id,
    eventType: row.event_type,
    attempt: n,
    statusCode: result.statusCode ?? null,
    error: result.error ?? null,
    url: redactWebhookUrl(row.url),
  };
  if (status === 'dropped') line.dropped = true;
  else if (delay !== null) line.nextAttemptAt = new Date(at.getTime() + result.durationMs + delay).toISOString();
  return line;
}

/** One circuit per endpoint: the environment and the URL it delivers to. */
export const circuitKey = (row: Pick<ClaimedDelivery, 'environment_id' | 'url'>): string => `${row.environment_id} ${row.url}`;

/**
 * The endpoint a delivery goes to: its environment and the URL's origin. Limits are per
 * environment's endpoint, never per bare host name: two tenants on one shared host (a hosted
 * automation service, or the same machine) must not hold each other's places.
 */
export function endpointOf(row: Pick<ClaimedDelivery, 'environment_id' | 'url'>): string {
  return `${row.environment_id} ${originOf(row.url)}`;
}

/** Each URL's origin, parsed once (every delivery of an endpoint has the same URL). */
const origins = new Map<string, string>();

function originOf(url: string): string {
  let origin = origins.get(url);
  if (origin === undefined) {
    try {
      origin = new URL(url).origin;
    } catch {
      origin = url;
    }
    if (origins.size >= 10_000) origins.clear();
    origins.set(url, origin);
  }
  return origin;
}
