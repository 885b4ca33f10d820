/**
 * `GET /v1/environments/{envId}/logs?token=<logs token>`: the environment's live log.
 *
 * States: verifying → live → closed. A token that is missing, malformed, of the wrong audience,
 * badly signed or expired closes with 4401; a valid token of another environment closes with
 * 4403 (the environment comes from the token's signing key, never from the URL). Live: the
 * environment's log subject is subscribed, then `{op:"ready", environmentId}` is sent, then every
 * `{op:"log", timestamp, level, event, data}` frame published by any process. The socket is
 * closed with 4401 when the token expires or is revoked: a dashboard member's tokens are revoked
 * when the member is removed or moved to a lower role, and a token minted with a dashboard
 * session when that session ends (auth/logs-access.ts); a token whose
 * member no longer has LOGS_RIGHT in the environment's organization is refused with 4403. A live
 * logs socket counts in the environment's socket quota like any other (4429 over it). Limits,
 * deadlines and close codes are the ones every socket shares (libs/edge: sessions/socket-link.ts,
 * sockets/close-codes.ts); `ready` ends the handshake.
 */
import type { WebSocket } from 'ws';
import type { FastifyRequest } from 'fastify';
import { verifyToken, TokenError, LOGS_TOKEN_AUDIENCE, type UserClaims } from '@rtm/auth';
import { LOGS_RIGHT, allows } from '@rtm/accounts';
import { decodeText, logFramesOf, publishLog, type Subscription } from '@rtm/bus';
import { linkAcceptor, readClientFrame, SOCKET_CLOSE, SOCKET_CLOSE_WITH, type SocketHandle } from '@rtm/edge';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { dashboardUserOf } from '../auth/logs-access.ts';

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (match) return match[1];
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.token === 'string' ? query.token : undefined;
}

export async function logsSocket(app: ZodApp, deps: GatewayDeps) {
  const accept = linkAcceptor(app, deps, 'logs');

  app.get(
    '/v1/environments/:envId/logs',
    {
      websocket: true,
      // WebSockets are outside OpenAPI: documented in docs/presence.md and this file's header
      schema: { hide: true },
    },
    (socket: WebSocket, request: FastifyRequest) => {
      const link = accept(socket, request);
      const envId = (request.params as { envId?: string }).envId ?? '';
      let subscription: Subscription | undefined;
      let handle: SocketHandle | undefined;
      let listened: string | undefined;
      socket.once('close', (code: number) => {
        subscription?.unsubscribe();
        if (listened !== undefined) deps.logListeners.closed(listened);
        if (handle) deps.events.emit('logs.close', handle);
        if (subscription) {
          publishLog(deps.nc, deps.subjects, envId, 'info', 'socket.closed', { socket: 'logs', socketId: link.socketId, code });
        }
      });
      // the only client frame: {op:"ping"} → {op:"pong"}
      socket.on('message', (data, isBinary) => {
        if (!link.admit(data)) return;
        const read = readClientFrame(data, isBinary);
        if (!read.ok) return link.send({ op: 'error', code: read.code, reason: read.reason });
        if ((read.value as { op?: unknown } | null)?.op === 'ping') link.send({ op: 'pong' });
        else link.send({ op: 'error', code: 'invalid_request', reason: 'the logs socket takes only {op:"ping"}' });
      });

      void (async () => {
        const token = tokenOf(request);
        if (!token) return link.closeWith(SOCKET_CLOSE.logsTokenMissing);
        let claims: UserClaims;
        try {
          claims = await verifyToken(token, (kid) => deps.credentials.signingKey(kid), {
            issuer: deps.config.TOKEN_ISSUER,
            audience: LOGS_TOKEN_AUDIENCE,
          });
        } catch (error) {
          if (error instanceof TokenError) return link.closeWith(SOCKET_CLOSE_WITH.badToken(error.message));
          request.log.warn({ err: error }, 'logs socket failed');
          return link.closeWith(SOCKET_CLOSE.unavailable);
        }
        const environmentId = claims.environmentId;
        if (environmentId !== envId) {
          publishLog(deps.nc, deps.subjects, environmentId, 'warn', 'socket.refused', {
            socket: 'logs',
            code: SOCKET_CLOSE.logsOtherEnvironment.code,
            reason: 'token of another environment',
          });
          return link.closeWith(SOCKET_CLOSE.logsOtherEnvironment);
        }
        if (link.closed) return;
        link.expireAt(claims.expiresAt);
        if (link.closed) return;
        // a revocation (of its member's tokens when removed or moved to a lower role, or of the
        // subject's tokens) closes it from now on (4401); one that landed before is refused here
        deps.sessions.tokens.watch(link, claims);
        try {
          if (await deps.revocations.isRevoked(claims)) return link.closeWith(SOCKET_CLOSE.tokenRevoked);
          const member = dashboardUserOf(claims.userId);
          if (member !== null) {
            // minted with a dashboard session that is over (its revocation may still be on its way)
            if (await deps.dashboard.sessionLogs.sessionEnded(claims.tokenId)) return link.closeWith(SOCKET_CLOSE.tokenRevoked);
            const role = await deps.dashboard.accounts.access.roleInEnvironment(environmentId, member);
            if (role === null || !allows(role, LOGS_RIGHT)) {
              return link.closeWith(SOCKET_CLOSE.logsMinterLeft);
            }
          }
        } catch (error) {
          request.log.warn({ err: error }, 'logs socket access check failed');
          return link.closeWith(SOCKET_CLOSE.unavailable);
        }
        if (link.closed) return;
        // announced to the processes that publish live-log events before `ready` (the flush below)
        deps.logListeners.opened(environmentId);
        listened = environmentId;
        subscription = deps.nc.subscribe(deps.subjects.logs(environmentId), {
          callback: (error, msg) => {
            // one bus message may carry several frames (a commit's events): each goes on its own
            if (!error) for (const frame of logFramesOf(decodeText(msg.data))) link.sendText(frame);
          },
        });
        try {
          await deps.nc.flush();
        } catch {
          return link.closeWith(SOCKET_CLOSE.unavailable);
        }
        link.established();
        // counted in the environment's socket quota (and its subject's socketsPerUser): over it, 4429
        handle = {
          socketId: link.socketId,
          environmentId,
          userId: claims.userId,
          anon: false,
          send: (frame) => link.send(frame),
          close: (closing) => link.closeWith(closing),
          revoke: (_code, reason) => link.closeWith(SOCKET_CLOSE_WITH.revoked(reason)),
        };
        deps.events.emit('logs.open', handle);
        link.send({ op: 'ready', environmentId });
        publishLog(deps.nc, deps.subjects, environmentId, 'info', 'socket.opened', { socket: 'logs', socketId: link.socketId });
      })();
    },
  );
}
