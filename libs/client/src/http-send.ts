import type { Clock } from './clock.ts';
import { parseRetryAfter } from './http.ts';
import type { FetchLike } from './types.ts';

/**
 * Requests in flight at once. Browsers open at most six HTTP/1.1 connections per host and the
 * event streams hold some of them; what is over waits its turn.
 */
export const MAX_IN_FLIGHT = 4;
/**
 * A request without an answer this long is abandoned as a lost ack (`unavailable`, sent again with
 * its key): the server answers within its owner time-out, so one this late went astray.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

type Aborter = { abort(): void; signal: unknown };

/** Where the client's HTTP requests go, and with which token: what the event-stream session and its sender share. */
export interface HttpHost {
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  /** The user's token for HTTP requests (`fresh`: a new one from getToken, after a 401). */
  token(fresh: boolean): Promise<string>;
}

export interface HttpSendHost extends HttpHost {
  /** The frame /v1/connect would have answered with: `ack` or `error`, with the request's ref. */
  answer(frame: Record<string, unknown>): void;
}

type Frame = Record<string, unknown>;

/**
 * Publishes, retractions, edits, reactions and presence entries over the realtime edge's HTTP API,
 * for a client on Server-Sent Events: `POST /v1/channels/{id}/messages` (with the frame's
 * idempotency key), `DELETE` and `PATCH /v1/channels/{id}/messages/{messageId}`, `POST` and
 * `DELETE …/{messageId}/reactions[/{type}]`; `PUT` / `DELETE /v1/channels/{id}/presence` with the stream's
 * connectionId; moderation with the member and ban routes. Each answer comes back as the socket's frame for it, so the
 * publish queue (publisher.ts) treats both transports alike: a refusal keeps its code (and
 * `retryAfter` of a 429), and a request without an answer is `unavailable` (its outcome is
 * unknown; the key makes sending it again safe).
 *
 * One request per channel at a time, in the order they were made, so a channel's messages are
 * stored in the order the application published them.
 */
export class HttpSender {
  readonly #host: HttpSendHost;
  readonly #lanes = new Map<string, Frame[]>();
  readonly #busy = new Set<string>();
  #inFlight = 0;
  #closed = false;
  /** The requests under way, ended by close(). */
  readonly #aborters = new Set<Aborter>();

  constructor(host: HttpSendHost) {
    this.#host = host;
  }

  /** A `publish`, `retract`, `edit`, `react`, `unreact`, presence or moderation frame (with `ref` and `channelId`). */
  send(frame: Frame): void {
    if (this.#closed) return;
    const channelId = String(frame.channelId);
    let lane = this.#lanes.get(channelId);
    if (!lane) this.#lanes.set(channelId, (lane = []));
    lane.push(frame);
    this.#pump();
  }

  /** The session is over: nothing more is sent, and answers still on their way are dropped. */
  close(): void {
    this.#closed = true;
    this.#lanes.clear();
    for (const aborter of this.#aborters) aborter.abort();
    this.#aborters.clear();
  }

  #pump(): void {
    for (const [channelId, lane] of this.#lanes) {
      if (this.#inFlight >= MAX_IN_FLIGHT) return;
      if (this.#busy.has(channelId)) continue;
      const frame = lane.shift();
      if (lane.length === 0) this.#lanes.delete(channelId);
      if (!frame) continue;
      this.#busy.add(channelId);
      this.#inFlight += 1;
      void this.#run(frame).then((answer) => {
        this.#busy.delete(channelId);
        this.#inFlight -= 1;
        if (this.#closed) return;
        this.#host.answer(answer);
        this.#pump();
      });
    }
  }

  async #run(frame: Frame): Promise<Frame> {
    const { ref, channelId } = frame;
    const refusal = (code: string, reason: string, retryAfter?: number): Frame => ({
      op: 'error',
      ref,
      channelId,
      code,
      reason,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
    const request = requestOf(frame);
    let fresh = false;
    for (;;) {
      let res: Awaited<ReturnType<FetchLike>>;
      let text: string;
      const Controller = (globalThis as { AbortController?: new () => Aborter }).AbortController;
      const aborter = Controller ? new Controller() : undefined;
      const clock = this.#host.clock;
      const timer = clock.setTimeout(() => aborter?.abort(), REQUEST_TIMEOUT_MS);
      if (aborter) this.#aborters.add(aborter);
      try {
        const token = await this.#host.token(fresh);
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
        if (request.body !== undefined) headers['content-type'] = 'application/json';
        // called as a plain function: a browser's fetch refuses any other `this`
        const fetchImpl = this.#host.fetch;
        res = await fetchImpl(this.#host.baseUrl + request.path, {
          method: request.method,
          headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          ...(aborter ? { signal: aborter.signal } : {}),
        });
        text = await res.text();
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return refusal('unavailable', `${request.method} ${request.path} got no answer (${why}); its outcome is unknown`);
      } finally {
        clock.clearTimeout(timer);
        if (aborter) this.#aborters.delete(aborter);
      }
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = text.length > 0 ? JSON.parse(text) : {};
        if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
      } catch {
        // not JSON: the status says enough
      }
      if (res.status >= 200 && res.status < 300) return ackOf(frame, body);
      if (res.status === 401 && !fresh) {
        // the token expired meanwhile: once more with a new one
        fresh = true;
        continue;
      }
      const code = typeof body.code === 'string' ? body.code : codeOfStatus(res.status);
      const reason = typeof body.reason === 'string' ? body.reason : `${request.method} ${request.path} answered ${res.status}`;
      const retryAfter = parseRetryAfter(res.headers.get('retry-after')) ?? (typeof body.retryAfter === 'number' ? body.retryAfter : undefined);
      return refusal(code, reason, retryAfter);
    }
  }
}

/** The answers of the moderation frames (the realtime edge's member and ban routes), by request. */
const MODERATION_ANSWERS: Record<string, string> = { 'remove-member': 'member-removed', 'ban-member': 'member-banned', 'unban-member': 'member-unbanned' };
/** The answers of the presence frames, by request. */
const PRESENCE_ANSWERS: Record<string, string> = {
  'presence-enter': 'presence-entered',
  'presence-update': 'presence-updated',
  'presence-leave': 'presence-left',
};

/**
 * The HTTP request of a `publish`, `retract`, `edit`, `react`, `unreact`, presence or moderation
 * frame (a presence frame carries the `connectionId` of the stream holding its channel's
 * subscription, put there by the session).
 */
export function requestOf(frame: Frame): { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; body: string | undefined } {
  // a moderation frame is the realtime edge's route for it: DELETE members/{user}, PUT/DELETE bans/{user}
  const channel = encodeURIComponent(String(frame.channelId));
  if (frame.op === 'remove-member' || frame.op === 'ban-member' || frame.op === 'unban-member') {
    const user = encodeURIComponent(String(frame.userId));
    if (frame.op === 'remove-member') return { method: 'DELETE', path: `/v1/channels/${channel}/members/${user}`, body: undefined };
    if (frame.op === 'unban-member') return { method: 'DELETE', path: `/v1/channels/${channel}/bans/${user}`, body: undefined };
    const ban: Frame = {};
    if (frame.reason !== undefined) ban.reason = frame.reason;
    if (frame.expiresAt !== undefined) ban.expiresAt = frame.expiresAt;
    return { method: 'PUT', path: `/v1/channels/${channel}/bans/${user}`, body: JSON.stringify(ban) };
  }
  if (frame.op === 'presence-leave') {
    return { method: 'DELETE', path: `/v1/channels/${channel}/presence?connectionId=${encodeURIComponent(String(frame.connectionId))}`, body: undefined };
  }
  if (frame.op === 'presence-enter' || frame.op === 'presence-update') {
    const body: Frame = { connectionId: frame.connectionId };
    if (frame.data !== undefined) body.data = frame.data;
    return { method: 'PUT', path: `/v1/channels/${channel}/presence`, body: JSON.stringify(body) };
  }
  const message = `/v1/channels/${channel}/messages/${encodeURIComponent(String(frame.id))}`;
  if (frame.op === 'retract') {
    return { method: 'DELETE', path: message, body: frame.reason === undefined ? undefined : JSON.stringify({ reason: frame.reason }) };
  }
  if (frame.op === 'edit') return { method: 'PATCH', path: message, body: JSON.stringify({ content: frame.content }) };
  if (frame.op === 'react') return { method: 'POST', path: `${message}/reactions`, body: JSON.stringify({ type: frame.type }) };
  if (frame.op === 'unreact') return { method: 'DELETE', path: `${message}/reactions/${encodeURIComponent(String(frame.type))}`, body: undefined };
  const body: Frame = { content: frame.content };
  for (const key of ['type', 'to', 'mentions', 'ephemeral', 'idempotencyKey'] as const) {
    if (frame[key] !== undefined) body[key] = frame[key];
  }
  return { method: 'POST', path: `/v1/channels/${channel}/messages`, body: JSON.stringify(body) };
}

/** The `ack` frame the socket would have sent for this answer. */
function ackOf(frame: Frame, body: Frame): Frame {
  const presence = PRESENCE_ANSWERS[String(frame.op)];
  if (presence !== undefined) return { op: presence, ref: frame.ref, channelId: frame.channelId };
  const moderation = MODERATION_ANSWERS[String(frame.op)];
  if (moderation === 'member-banned')
    return { op: moderation, ref: frame.ref, channelId: frame.channelId, userId: frame.userId, reason: body.reason ?? null, expiresAt: body.expiresAt ?? null };
  if (moderation !== undefined) return { op: moderation, ref: frame.ref, channelId: frame.channelId, userId: frame.userId };
  const ack: Frame = { op: 'ack', ref: frame.ref, channelId: frame.channelId, id: body.id };
  if (typeof body.seq === 'number') ack.seq = body.seq;
  if (typeof body.timestamp === 'number') ack.timestamp = body.timestamp;
  if (body.ephemeral === true) ack.ephemeral = true;
  if (frame.op === 'retract') ack.retracted = true;
  // an edit's and a retraction's place in the channel's sequence, an edit's version, a reaction's outcome
  for (const key of ['eventSeq', 'version', 'updatedAt', 'type', 'reacted'] as const) {
    if (body[key] !== undefined) ack[key] = body[key];
  }
  return ack;
}

/** The code of a refusal that came without the service's envelope (a proxy's 502, say). */
function codeOfStatus(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return `http_${status}`;
}
