/**
 * `GET /v1/events` on the realtime edge: the multiplexed connection of `/v1/connect` as a
 * server-sent event stream, for clients whose WebSockets are blocked (docs/protocol.md,
 * "Server-sent events"). It is the same Connection (connect-socket.ts) over another link
 * (sessions/sse-link.ts): the same admission (quotas, token expiry and revocation, the environment
 * ban), the same subscriptions with their gap-free replay, kicks, presence frames and close rules,
 * so the two endpoints cannot drift apart. What the stream adds: its channels come from the query
 * (subscribed at once, without refs), and each event's id carries every channel's position
 * (sessions/event-positions.ts), so a reconnect with `Last-Event-ID` resumes each one. With
 * `inbox=`, the connection's inbox is subscribed too (its frames, then `inbox-subscribed`), and the
 * event id holds its last notification (the channels may then be none).
 *
 * Until the stream starts, a refusal is the request's HTTP answer in the error envelope (400 bad
 * query or event id, 401 token, 403 banned, 429 socket quota or opens per second, 503); the
 * stream starts only once its socket quotas are checked, so a quota's refusal is a 429 too.
 */
import { ServiceError, isServiceError } from '@rtm/errors';
import { eventsOperations } from '@rtm/schemas';
import type { ZodApp } from '../zod-app.ts';
import type { AcceptDeps } from '../sessions/accept-link.ts';
import { authenticateUser, type AuthDeps } from '../auth/authenticate.ts';
import { EventPositions, resumeInbox, resumePositions } from '../sessions/event-positions.ts';
import { refusalCode, sseAcceptor } from '../sessions/sse-link.ts';
import { Connection, type ConnectDeps } from './connect-socket.ts';

/** What the event stream needs: a credential check, the `/v1/connect` connection it runs, its acceptor. */
export type EventsStreamDeps = AuthDeps & ConnectDeps & AcceptDeps;

/** The `Last-Event-ID` header (EventSource's own on a reconnect), else the `lastEventId` parameter. */
function lastEventIdOf(header: string | string[] | undefined, query: string | undefined): [string | undefined, string] {
  if (typeof header === 'string') return [header, 'Last-Event-ID'];
  if (Array.isArray(header)) throw new ServiceError('invalid_request', 'Last-Event-ID: sent more than once');
  return [query, 'query.lastEventId'];
}

/** Realtime edge: the event stream (documented in docs/protocol.md, the OpenAPI and AsyncAPI documents). */
export async function eventsStreamRoutes(app: ZodApp, deps: EventsStreamDeps) {
  const accept = sseAcceptor(app, deps);
  app.route({
    ...eventsOperations.openEvents,
    handler: async (request, reply) => {
      const { channels, lastEventId, inbox, delta } = request.query;
      if (channels.length === 0 && inbox === undefined)
        throw new ServiceError('invalid_request', 'query.channels: at least one channel (or the inbox: inbox=1)');
      // a browser's reconnect sends the newest id in the header, on the URL it first opened (whose
      // lastEventId, if any, is older): the header wins
      const [eventId, where] = lastEventIdOf(request.headers['last-event-id'], lastEventId);
      const starts = resumePositions(channels, eventId, where);
      const inboxSince = inbox === undefined ? undefined : resumeInbox(inbox, eventId, where);
      const auth = await authenticateUser(deps, request);
      const link = accept(
        request,
        reply,
        new EventPositions(
          channels.map((channel) => channel.channelId),
          starts,
          inboxSince,
        ),
      );
      const connection = new Connection(deps, deps.sessions, link, 'events');
      link.session = connection;
      try {
        const opened = await connection.begin(auth, () => deps.limits.quotasChecked(link.socketId));
        if (!opened) {
          // closed while it opened (a socket quota, a revocation, the handshake deadline, a drain)
          const refusal = link.refusal;
          throw refusal
            ? new ServiceError(refusalCode(refusal), refusal.reason, refusalCode(refusal) === 'rate_limited' ? { retryAfter: 1 } : undefined)
            : new ServiceError('unavailable', 'the stream closed while it opened');
        }
      } catch (error) {
        link.closeWith(connection.refusal(error));
        throw isServiceError(error) ? error : new ServiceError('unavailable', 'temporarily unavailable: reconnect');
      }
      // a position (the query's ~seq or the event id's) is a resume: a `~rewind:` applies only without one
      channels.forEach((channel, at) =>
        connection.subscribe(undefined, channel.channelId, { since: starts[at], rewind: channel.rewind }, false, delta !== undefined),
      );
      if (inbox !== undefined) void connection.subscribeInbox(undefined, inboxSince);
      return reply;
    },
  });
}
