/**
 * `GET /v1/events` on the realtime edge: the multiplexed connection's server frames as a
 * server-sent event stream, for clients whose WebSockets are blocked (docs/protocol.md, "Server-sent
 * events"). The query names the channels (each may resume after a seq), the token (EventSource
 * cannot set headers) and, for clients that cannot send `Last-Event-ID`, the last event id.
 */
import { z } from 'zod';
import { ErrorBody } from '../common.ts';
import { SERVER_FRAMES } from '../connect.ts';
import { REWIND_TEXT_MAX, parseRewind, type Rewind } from '../rewind.ts';
import { DeltaFormat } from '../channels.ts';
import type { Operations } from './operation.ts';

/** Channels of one stream. */
export const EVENTS_MAX_CHANNELS = 20;

/**
 * `<channelId>`, `<channelId>~<seq>` or `<channelId>~rewind:<count or duration>`: `~` is not in the
 * channel id alphabet (common.ts ChannelId).
 */
const CHANNEL_ENTRY = /^([A-Za-z0-9_.:@=-]{1,128})(?:~(?:(0|[1-9][0-9]{0,15})|rewind:(.*)))?$/;
/** The longest entry: a channel id of 128, `~rewind:` and the longest rewind text. */
const ENTRY_MAX = 128 + '~rewind:'.length + REWIND_TEXT_MAX;

/**
 * One channel of the query: resumed after `since` when it names one; else, when the event id
 * gives it no position either, started `rewind` back (rewind.ts).
 */
export interface EventsChannel {
  channelId: string;
  since?: number;
  rewind?: Rewind;
}

/**
 * The `channels` parameter read: up to 20 distinct channels, each with its optional `~seq`. An
 * empty one is no channel (allowed only with `inbox`: the route checks it).
 */
export function parseEventsChannels(value: string): EventsChannel[] | string {
  if (value === '') return [];
  const entries = value.split(',');
  if (entries.length > EVENTS_MAX_CHANNELS) return `at most ${EVENTS_MAX_CHANNELS} channels`;
  const channels: EventsChannel[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const match = CHANNEL_ENTRY.exec(entry);
    const since = match?.[2] === undefined ? undefined : Number(match[2]);
    if (!match || (since !== undefined && !Number.isSafeInteger(since))) {
      return (
        `"${entry.slice(0, ENTRY_MAX)}" is not <channelId>, <channelId>~<seq> or <channelId>~rewind:<count or duration> ` +
        '(channel ids are 1-128 of [A-Za-z0-9_.:@=-], seq an integer >= 0)'
      );
    }
    const channelId = match[1]!;
    if (seen.has(channelId)) return `channel "${channelId}" is named twice`;
    seen.add(channelId);
    if (match[3] !== undefined) {
      const rewind = parseRewind(match[3]);
      if (typeof rewind === 'string') return `"${entry.slice(0, ENTRY_MAX)}": rewind ${rewind}`;
      channels.push({ channelId, rewind });
    } else channels.push(since === undefined ? { channelId } : { channelId, since });
  }
  return channels;
}

export const EventsQuery = z
  .object({
    channels: z
      .string()
      .max(EVENTS_MAX_CHANNELS * (ENTRY_MAX + 1))
      .default('')
      .describe(
        'Comma-separated, 1-20 distinct entries (0-20 with `inbox`): `<channelId>` (start live, or where the last event id left it), ' +
          '`<channelId>~<seq>` (resume after `seq`, as `subscribe` with `since`; it wins over the event id) or ' +
          '`<channelId>~rewind:<N or duration>` (as `subscribe` with `rewind`: the last N messages, 1-100, or those of the last ' +
          '`30s`, `2m`, `1h`, at most 24h; used only when the event id gives the channel no position, so a reconnect resumes instead of rewinding again).',
      )
      .transform((value, ctx) => {
        const read = parseEventsChannels(value);
        if (typeof read === 'string') {
          ctx.addIssue({ code: 'custom', message: read });
          return z.NEVER;
        }
        return read;
      }),
    inbox: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9_]+$/, 'must be 1 or a notification id')
      .optional()
      .describe(
        "The user's inbox on the stream, as `subscribe-inbox`: `1` from the start (every retained notification), or " +
          '`<notification id>` (resume after it, as `since`). Its notifications, then `inbox-subscribed`. The event id ' +
          'holds its position too (`inbox~<id>`): a reconnect resumes after the later of the two.',
      ),
    delta: DeltaFormat.optional().describe(
      "Every channel of the stream as `subscribe` with `delta`: `fossil`, each message's `content` as a fossil delta against the previous " +
        'message the stream sent on that channel (`delta: {format, base, data}` in place of `content`). A channel whose namespace does not ' +
        'turn `delta` on is refused (an `error` event with its `channelId`, code `forbidden`); the others go on.',
    ),
    token: z.string().optional().describe('The user token (an EventSource cannot send `Authorization`).'),
    lastEventId: z
      .string()
      .max(1024)
      .optional()
      .describe('The id of the last event received, for clients that cannot send the `Last-Event-ID` header (the header wins when both are sent).'),
  })
  .strict();

/** The frames of a stream: those of /v1/connect it can carry (no request is made on it, so none has a `ref`), and `closed`. */
export const EVENT_STREAM_FRAMES = {
  connected: SERVER_FRAMES.connected,
  message: SERVER_FRAMES.message,
  messageDelta: SERVER_FRAMES.messageDelta,
  subscribed: SERVER_FRAMES.subscribed
    .omit({ ref: true })
    .describe("The channel's replay is over; `lastSeq` is its last seq when the replay was cut. Live frames follow."),
  unsubscribed: SERVER_FRAMES.unsubscribed
    .omit({ ref: true })
    .required({ code: true, reason: true })
    .describe('The server ended one subscription (`code` says why); the stream and its other channels go on.'),
  retract: SERVER_FRAMES.retract,
  update: SERVER_FRAMES.update,
  summary: SERVER_FRAMES.summary,
  skip: SERVER_FRAMES.skip,
  presence: SERVER_FRAMES.presence,
  notification: SERVER_FRAMES.notification,
  inboxSubscribed: SERVER_FRAMES.inboxSubscribed.omit({ ref: true }).describe("With `inbox`: the inbox's replay is over; live notifications follow."),
  error: SERVER_FRAMES.error
    .omit({ ref: true })
    .describe('A channel of the query was refused at its subscribe (`channelId`, `code`, `reason`); the others go on.'),
  closed: z
    .object({
      op: z.literal('closed'),
      code: z.number().int().describe('The close code /v1/connect would close with (4401, 4403, 4429, 4500, 4503).'),
      reason: z.string(),
    })
    .strict()
    .describe('The last event: the server ends the stream (after a `retry:` line with the back-off for the reason).'),
};

/**
 * The 200 answer is an event stream, not JSON: declared by its media type (fastify and the
 * OpenAPI transform read a `content` response as such), so it is cast to the operation's type.
 */
const EventStream = {
  description:
    'An event stream: `retry: 1000`, then one event per frame, `id: <positions>` and `data: <frame JSON>` (the frames of ' +
    "`/v1/connect`: `connected`, each channel's replay and `subscribed`, then live frames; `closed` last), and `: ping` every 15 s.",
  content: { 'text/event-stream': { schema: z.string() } },
} as unknown as z.ZodType;

/** Realtime edge: `GET /v1/events`. */
export const eventsOperations = {
  openEvents: {
    method: 'GET',
    url: '/v1/events',
    schema: {
      operationId: 'openEvents',
      summary: 'Stream channels as server-sent events',
      description:
        'User token (`Authorization: Bearer` or `?token=`). The frames of `GET /v1/connect` for up to 20 channels as ' +
        "server-sent events, for clients whose WebSockets are blocked: each channel's replay after its position (or its `~rewind:`), " +
        "`subscribed`, then live frames; with `inbox`, the user's notifications too (then `inbox-subscribed`), and the " +
        "channels may be none. Every event's `id` holds every channel's position (comma-separated " +
        '`<h>~<seq>`, `<h>` the first 8 characters of base64url(sha256(channelId))), so a reconnect with ' +
        '`Last-Event-ID` (or `lastEventId=`) resumes each channel with no gap and no duplicate. Refusals before the ' +
        'stream: 400 bad query, 401 token, 403 `banned` from the environment, 429 socket quota or opens per second. ' +
        'See docs/protocol.md, "Server-sent events".',
      tags: ['messages'],
      security: [{ userToken: [] }],
      querystring: EventsQuery,
      response: { 200: EventStream, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody },
    },
  },
} as const satisfies Operations;
