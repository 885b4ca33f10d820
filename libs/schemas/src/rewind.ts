/**
 * `rewind`: where a new subscription starts when it has no resume position (`since`): the last
 * N messages the user may see (1-100), or the messages published within a duration (whole
 * seconds, minutes or hours, `30s`, `2m`, `1h`, at most 24h). One grammar on every transport: the
 * channel socket's `?rewind=`, the `subscribe` frame's `rewind` (a number is a count, a string is
 * read as the query's text) and an event stream's `<channelId>~rewind:<value>`.
 * The edge resolves it to a `since` against the subscription's snapshot
 * (libs/channels/src/rewind.ts) and replays from there; `since`, when given too, wins.
 */
import { z } from 'zod';

/** The most messages a count asks for. */
export const REWIND_MAX_COUNT = 100;
/** The longest duration, in seconds (24h). */
export const REWIND_MAX_SECONDS = 24 * 60 * 60;
/** The longest rewind text read: longer is refused before it is looked at. */
export const REWIND_TEXT_MAX = 24;

/** A rewind read: a count of messages, or a duration in milliseconds. */
export type Rewind = { count: number } | { ms: number };

const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;
const TEXT = /^([0-9]{1,16})([smh]?)$/;
const GRAMMAR = `a message count from 1 to ${REWIND_MAX_COUNT} or a duration of whole seconds, minutes or hours (30s, 2m, 1h), at most 24h`;

function count(value: number, shown: string): Rewind | string {
  if (!Number.isSafeInteger(value)) return `must be ${GRAMMAR} (got ${shown})`;
  if (value < 1 || value > REWIND_MAX_COUNT) return `a count must be from 1 to ${REWIND_MAX_COUNT} (got ${shown})`;
  return { count: value };
}

/**
 * A rewind as a client sent it: a number (a count) or text (a count, or an amount and a unit).
 * Anything else is the reason it is refused (a string, for the `invalid_request` error).
 */
export function parseRewind(value: unknown): Rewind | string {
  if (typeof value === 'number') return count(value, String(value));
  if (typeof value !== 'string') return `must be ${GRAMMAR}`;
  const shown = JSON.stringify(value.slice(0, REWIND_TEXT_MAX));
  const match = value.length <= REWIND_TEXT_MAX ? TEXT.exec(value) : null;
  if (!match) return `must be ${GRAMMAR} (got ${shown})`;
  const amount = Number(match[1]);
  const unit = match[2] as keyof typeof UNIT_SECONDS | '';
  if (unit === '') return count(amount, shown);
  const seconds = amount * UNIT_SECONDS[unit];
  if (seconds < 1) return `a duration must be at least 1s (got ${shown})`;
  if (seconds > REWIND_MAX_SECONDS) return `a duration must be at most 24h (got ${shown})`;
  return { ms: seconds * 1000 };
}

const DESCRIPTION =
  `Where the subscription starts when there is no \`since\`: the last N messages the user may see (N from 1 to ${REWIND_MAX_COUNT}), ` +
  'or those published within a duration (`30s`, `2m`, `1h`: whole seconds, minutes or hours, at most 24h); they are replayed, ' +
  'then live frames follow. `since` wins when both are given.';

function refined(value: unknown, ctx: z.RefinementCtx): Rewind {
  const read = parseRewind(value);
  if (typeof read === 'string') {
    ctx.addIssue({ code: 'custom', message: read });
    return z.NEVER;
  }
  return read;
}

/** `rewind` in a query (`?rewind=10`, `?rewind=2m`). */
export const RewindText = z.string().describe(DESCRIPTION).transform(refined);

/**
 * `rewind` in a JSON frame: a count as a number, or the query's text. Any value reaches
 * parseRewind, so every refusal names the grammar; the document shows the two forms.
 */
export const RewindValue = z
  .custom<number | string>(() => true)
  .meta({
    anyOf: [
      { type: 'integer', minimum: 1, maximum: REWIND_MAX_COUNT },
      { type: 'string', pattern: TEXT.source, maxLength: REWIND_TEXT_MAX },
    ],
  })
  .describe(DESCRIPTION)
  .transform(refined);
