/**
 * Every reason the gateway closes a socket, in one table: the channel, inbox and logs sockets all
 * close through it, so the same condition gives the same code on every endpoint. Codes mirror HTTP
 * statuses; 4500 and 4503 invite a reconnect (resume with `since`), the others do not until the
 * client changes something (a new token, a smaller frame, a slower pace). docs/limits.md lists the
 * same table for clients.
 */
import { CLOSE, closeCodeFor, isServiceError, type CloseCode } from '@rtm/errors';
import { MAX_FRAME_BYTES } from './frame-limits.ts';

export interface Closing {
  code: CloseCode;
  reason: string;
}

export const SOCKET_CLOSE = {
  /** A frame whose header announces more than MAX_FRAME_BYTES: refused before its payload is read. */
  frameTooLarge: { code: CLOSE.badRequest, reason: `frame over ${MAX_FRAME_BYTES} bytes` },
  /** A frame that breaks the WebSocket protocol (bad opcode, unmasked, invalid UTF-8 text). */
  protocolError: { code: CLOSE.badRequest, reason: 'invalid WebSocket frame' },
  /** The token expired while the socket was open. */
  tokenExpired: { code: CLOSE.unauthorized, reason: 'token expired' },
  /** The token was revoked (by its id, or with every token of its user) while the socket was open. */
  tokenRevoked: { code: CLOSE.unauthorized, reason: 'token revoked' },
  /** More frames or bytes per second than the socket's inbound rate. */
  rateLimited: { code: CLOSE.rateLimited, reason: 'rate limited: too many frames or bytes per second' },
  /** Publishes of the token's user over its limit (HTTP and sockets counted together, cluster-wide). */
  publishRateLimited: { code: CLOSE.rateLimited, reason: 'rate limited: publishes per second of this user' },
  /** More frames or bytes sent before `ready` than the socket holds while it replays. */
  tooEarly: { code: CLOSE.rateLimited, reason: 'rate limited: too much sent before ready' },
  /** Authentication, access check and replay start did not finish within SOCKET_HANDSHAKE_MS. */
  handshakeTimeout: { code: CLOSE.unavailable, reason: 'handshake timed out: reconnect' },
  /** More than SOCKET_BUFFER_LIMIT queued, or shed as the slowest socket when the gateway's budget is spent. */
  slowConsumer: { code: CLOSE.unavailable, reason: 'slow consumer: reconnect and resume with since' },
  /** The channel outran a replay by more than the frames held meanwhile. */
  outrun: { code: CLOSE.unavailable, reason: 'too far behind: reconnect and resume with since' },
  /** The channel feed lost track of a gap it could not repair. */
  resync: { code: CLOSE.unavailable, reason: 'reconnect and resume with since' },
  /** The gateway is shutting down. */
  draining: { code: CLOSE.unavailable, reason: 'gateway draining' },
  /** A dependency (Postgres, NATS, a channel owner) failed while opening. */
  unavailable: { code: CLOSE.unavailable, reason: 'temporarily unavailable: reconnect' },
  /** The token's user already holds `socketsPerUser` sockets in the environment. */
  userSocketsFull: { code: CLOSE.rateLimited, reason: 'too many sockets for this user' },
  /** The environment already holds `socketsPerEnvironment` sockets. */
  environmentSocketsFull: { code: CLOSE.rateLimited, reason: 'too many sockets in this environment' },
  /** A logs socket opened without `?token=`. */
  logsTokenMissing: { code: CLOSE.unauthorized, reason: 'a logs token is required (?token=)' },
  /** A logs token of another environment than the socket's path names. */
  logsOtherEnvironment: { code: CLOSE.forbidden, reason: 'the token belongs to another environment' },
  /** A logs token minted by a dashboard member who has since lost access to the environment. */
  logsMinterLeft: { code: CLOSE.forbidden, reason: 'the member who minted this token no longer has access to the environment' },
  /** An `auth` frame of /v1/connect whose token is of another user or environment than the connection's. */
  authMismatch: { code: CLOSE.unauthorized, reason: 'auth: a token of another user or environment' },
} as const satisfies Record<string, Closing>;

/** The closes whose reason is told by the caller. */
export const SOCKET_CLOSE_WITH = {
  /** Access taken away (a ban, a removal, an access change, a deleted channel): the kick's reason. */
  revoked: (reason: string): Closing => ({ code: CLOSE.forbidden, reason }),
  /** A query parameter that does not parse: what is wrong with it. */
  badQuery: (problem: string): Closing => ({ code: CLOSE.badRequest, reason: `query: ${problem}` }),
  /** A token that does not verify (expired, bad signature, wrong audience): why. */
  badToken: (problem: string): Closing => ({ code: CLOSE.unauthorized, reason: problem }),
} as const;

/** A close for lost access (4403): a subscription of /v1/connect it ends says `forbidden`, any other `unavailable`. */
export const isAccessClose = (closing: Closing): boolean => closing.code === CLOSE.forbidden;

/**
 * The close for a failure while opening a socket: a ServiceError closes with its own code (4400
 * bad parameter, 4401 token, 4403 access, 4429 quota, 4500 internal, 4503 unavailable); anything
 * else is a dependency that failed (a refused query, a lost bus), so the client may reconnect.
 */
export function closingFor(error: unknown): Closing {
  if (isServiceError(error)) return { code: closeCodeFor(error.code), reason: error.reason ?? error.code };
  return SOCKET_CLOSE.unavailable;
}
