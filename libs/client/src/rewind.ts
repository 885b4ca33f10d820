/**
 * `subscribe(listener, {rewind})`: where a new subscription starts when it has no `since` — the
 * last N messages the user may see (a number, 1-100), or those published within a duration (a
 * string: whole seconds, minutes or hours, `30s`, `2m`, `1h`, at most `24h`). The server reads
 * the same grammar (docs/protocol.md, "Subscribing"); the SDK checks it first so a bad value
 * throws at the call instead of failing the subscription later.
 */

/** The most messages a count asks for. */
export const REWIND_MAX_COUNT = 100;
/** The longest duration, in seconds (24h). */
export const REWIND_MAX_SECONDS = 24 * 60 * 60;

/** A count of messages, or a duration such as `'2m'`. */
export type Rewind = number | string;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };
const TEXT = /^([0-9]{1,16})([smh]?)$/;

/** Why `value` is not a rewind, or undefined when it is one. */
export function rewindProblem(value: unknown): string | undefined {
  const grammar = `rewind must be a message count from 1 to ${REWIND_MAX_COUNT} or a duration of whole seconds, minutes or hours ('30s', '2m', '1h'), at most '24h'`;
  let amount: number;
  let unit = '';
  if (typeof value === 'number') amount = value;
  else if (typeof value === 'string') {
    const match = value.length <= 24 ? TEXT.exec(value) : null;
    if (!match) return grammar;
    amount = Number(match[1]);
    unit = match[2]!;
  } else return grammar;
  if (unit === '') {
    if (!Number.isSafeInteger(amount)) return grammar;
    return amount >= 1 && amount <= REWIND_MAX_COUNT ? undefined : `rewind: a count must be from 1 to ${REWIND_MAX_COUNT}`;
  }
  const seconds = amount * UNIT_SECONDS[unit]!;
  if (seconds < 1) return 'rewind: a duration must be at least 1s';
  return seconds <= REWIND_MAX_SECONDS ? undefined : 'rewind: a duration must be at most 24h';
}
