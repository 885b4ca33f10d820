/**
 * `GET /inbox?since=<notificationId>`: a user's notifications, replayed then live.
 *
 * States: authenticating → replaying → live → closed.
 * - authenticating: token (header or `?token=`) verified, `since` validated, admitted (quotas,
 *   token expiry → 4401); refusals close with their code from SOCKET_CLOSE (4401, 4400 bad
 *   `since`, 4503 a dependency failed). The environment ban is checked after the socket is
 *   reachable by kicks (4403), so a ban racing the open cannot miss it. The handshake deadline
 *   (SOCKET_HANDSHAKE_MS) runs until the replay starts.
 * - replaying: the user's subject is subscribed (and flushed) first, then every retained
 *   notification with id > since is sent from Postgres, ascending, at the client's pace (a page
 *   waits until the socket has taken the previous one); live frames that arrive
 *   meanwhile are held. Anything committed before the query is in it; anything after reaches the
 *   subscription; so nothing is missed.
 * - live: held frames not already replayed are sent, then `{op:"ready", userId}`, then every live
 *   notification as it comes. The same notification reaches all of the user's inbox sockets on
 *   every gateway.
 */
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { publishLog } from '@rtm/bus';
import { isServiceError } from '@rtm/errors';
import { InboxSocketQuery } from '@rtm/schemas';
import type { FastifyRequest } from 'fastify';
import type { ZodApp } from '../zod-app.ts';
import type { EdgeDeps } from '../edge-deps.ts';
import type { SocketHandle } from '../socket-events.ts';
import { authenticateUser, type AuthDeps } from '../auth/authenticate.ts';
import { environmentBan } from '../access/bans.ts';
import { InboxReplay, type InboxReplayDeps } from '../sessions/inbox-replay.ts';
import { readClientFrame } from '../sessions/client-frame.ts';
import { linkAcceptor, type AcceptDeps } from '../sessions/accept-link.ts';
import { SOCKET_CLOSE_WITH, closingFor } from './close-codes.ts';

const ClientFrame = z.object({ op: z.literal('ping') }).passthrough();

/** What the inbox socket needs: a credential check, its acceptor and replay, the bus and the socket events. */
export type InboxSocketDeps = AuthDeps & AcceptDeps & InboxReplayDeps & Pick<EdgeDeps, 'events' | 'nc' | 'pool' | 'sessions' | 'subjects'>;

export async function inboxSocket(app: ZodApp, deps: InboxSocketDeps) {
  const sessions = deps.sessions;

  const accept = linkAcceptor(app, deps, 'inbox');

  app.get(
    '/inbox',
    {
      websocket: true,
      // WebSockets are outside OpenAPI: documented in docs/presence.md and this file's header
      schema: { hide: true },
    },
    (socket: WebSocket, request: FastifyRequest) => {
      const link = accept(socket, request);
      let handle: SocketHandle | undefined;
      let unsubscribe: (() => void) | undefined;

      socket.on('message', (data, isBinary) => {
        if (!link.admit(data)) return;
        const read = readClientFrame(data, isBinary);
        if (!read.ok) return link.send({ op: 'error', code: read.code, reason: read.reason });
        if (ClientFrame.safeParse(read.value).success) link.send({ op: 'pong' });
        else link.send({ op: 'error', code: 'invalid_request', reason: 'the inbox socket takes only {op:"ping"}' });
      });

      socket.once('close', (code: number) => {
        unsubscribe?.();
        if (handle) {
          deps.events.emit('inbox.close', handle);
          publishLog(deps.nc, deps.subjects, handle.environmentId, 'info', 'socket.closed', {
            socket: 'inbox',
            socketId: link.socketId,
            userId: handle.userId,
            code,
          });
        }
      });

      const refuse = (error: unknown, environmentId?: string) => {
        const closing = closingFor(error);
        if (!isServiceError(error)) request.log.warn({ err: error }, 'inbox socket failed');
        if (environmentId) {
          publishLog(deps.nc, deps.subjects, environmentId, 'warn', 'socket.refused', { socket: 'inbox', ...closing });
        }
        link.closeWith(closing);
      };

      void (async () => {
        let environmentId: string | undefined;
        try {
          const auth = await authenticateUser(deps, request);
          environmentId = auth.environmentId;
          const query = InboxSocketQuery.safeParse(request.query ?? {});
          if (!query.success) {
            const closing = SOCKET_CLOSE_WITH.badQuery(query.error.issues[0]?.message ?? 'invalid');
            link.closeWith(closing);
            publishLog(deps.nc, deps.subjects, environmentId, 'warn', 'socket.refused', {
              socket: 'inbox',
              code: closing.code,
              userId: auth.userId,
            });
            return;
          }
          const since = query.data.since;
          if (link.closed) return;
          await sessions.admit(link, auth, 'inbox');
          if (link.closed) return;

          const reader = new InboxReplay(deps, sessions.feed, link, auth.environmentId, auth.userId);
          unsubscribe = () => reader.stop();
          await reader.listen();
          handle = {
            socketId: link.socketId,
            environmentId: auth.environmentId,
            userId: auth.userId,
            anon: auth.anon,
            send: (frame) => link.send(frame),
            close: (closing) => link.closeWith(closing),
            revoke: (_code, reason) => link.closeWith(SOCKET_CLOSE_WITH.revoked(reason)),
          };
          deps.events.emit('inbox.open', handle);
          await sessions.feed.flush();
          // checked only now that kicks reach this socket: a ban committed after this read is
          // kicked, one committed before it is seen here, so none slips between the two
          const ban = await environmentBan(deps.pool, auth.environmentId, auth.userId);
          if (ban) {
            const closing = SOCKET_CLOSE_WITH.revoked(ban.reason ?? 'banned');
            link.closeWith(closing);
            publishLog(deps.nc, deps.subjects, environmentId, 'warn', 'socket.refused', {
              socket: 'inbox',
              code: closing.code,
              userId: auth.userId,
              reason: 'banned',
            });
            return;
          }

          link.established();
          if (!(await reader.replay(since))) return;
          reader.live();
          link.send({ op: 'ready', userId: auth.userId });
          publishLog(deps.nc, deps.subjects, auth.environmentId, 'info', 'socket.opened', {
            socket: 'inbox',
            socketId: link.socketId,
            userId: auth.userId,
            since: since ?? null,
          });
        } catch (error) {
          refuse(error, environmentId);
        }
      })();
    },
  );
}
