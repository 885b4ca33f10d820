/**
 * How a failed merged commit finds its bad commands without failing the good ones. A commit
 * carries commands of many channels and environments in one transaction; when a statement fails,
 * Postgres does not say which row was at fault. The range is split in halves (command order
 * kept: the left half commits before the right one, so each channel's order and seqs stay those
 * of its commands) and each half is tried again, down to single commands: with k bad commands
 * among n this costs at most 1 + 2·k·⌈log2 n⌉ transactions, instead of n when every command is
 * replayed alone. Errors that are no command's fault (the connection broke, a transient
 * conflict) are not split: they fail the range and every range not tried yet.
 */
import { QuotaError } from './quota-allowance.ts';
import { isConnectionError } from '@rtm/db';
import type { CommandReply } from '@rtm/schemas';

/**
 * Tries `attempt` on [0, n), bisecting on errors `splittable` accepts. Resolves with one entry
 * per index: undefined when that index committed (in exactly one successful attempt), else the
 * error it failed with. Attempts are sequential and cover indices in ascending order.
 */
export async function isolateFailures(
  n: number,
  attempt: (from: number, to: number) => Promise<void>,
  splittable: (error: unknown) => boolean,
): Promise<unknown[]> {
  const failures: unknown[] = new Array(n).fill(undefined);
  let fatal: { error: unknown } | undefined;
  const run = async (from: number, to: number): Promise<void> => {
    if (from >= to) return;
    if (fatal) {
      failures.fill(fatal.error, from, to);
      return;
    }
    try {
      await attempt(from, to);
    } catch (error) {
      if (!splittable(error)) {
        fatal = { error };
        failures.fill(error, from, to);
        return;
      }
      if (to - from === 1) {
        failures[from] = error;
        return;
      }
      const middle = from + Math.ceil((to - from) / 2);
      await run(from, middle);
      await run(middle, to);
    }
  };
  await run(0, n);
  return failures;
}

/** Postgres error classes that are the data's fault: a command carrying such data fails alone. */
const DATA_FAULT = /^(22|23502|23503|23514)/;
/** Transient: serialization failure, deadlock, lock not available. Retrying later may succeed. */
const TRANSIENT = /^(40|55P03)/;

const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};

/** Whether bisecting can isolate the cause: anything but a broken connection or a transient conflict. */
export function isSplittable(error: unknown): boolean {
  if (isConnectionError(error) || error instanceof QuotaError) return false;
  return !TRANSIENT.test(sqlState(error) ?? '');
}

/** The reply a command gets when it failed (alone, or with a whole range for unsplittable errors). */
export function replyForFailure(error: unknown, fenced: boolean): Extract<CommandReply, { ok: false }> {
  if (fenced) {
    return { ok: false, code: 'unavailable', reason: 'another writer is moving this channel (owner hand-over); retry with an idempotencyKey' };
  }
  if (isConnectionError(error)) return { ok: false, code: 'unavailable', reason: 'the database is not reachable; retry' };
  if (error instanceof QuotaError) return { ok: false, code: 'unavailable', reason: 'other commits kept taking the monthly quota; retry' };
  const state = sqlState(error) ?? '';
  if (TRANSIENT.test(state)) return { ok: false, code: 'unavailable', reason: 'the commit met a conflicting writer; retry' };
  if (DATA_FAULT.test(state)) return { ok: false, code: 'invalid_request', reason: 'the database refused this command' };
  return { ok: false, code: 'internal' };
}
