/**
 * Presence entries asked for over HTTP (`PUT`/`DELETE /v1/channels/{channelId}/presence`,
 * apps/gateway/src/routes/presence-entries.ts) for a connection that may be on any gateway: an event stream cannot
 * send frames, so its client names the stream by its `connectionId` and the request lands wherever
 * the load balancer sends it.
 *
 * The gateway that gets the request looks for the connection among its own (the caller's sockets
 * here); else it asks every gateway on subjects.connectionRequests, and the one holding a
 * connection of that id and user answers with what the frame would have answered (ok, or the
 * error's code and reason); the others stay silent. No answer within ASK_TIMEOUT_MS means no
 * gateway holds it: `not_found`, as for a connection of another user (it is looked up among the
 * caller's own, so another user's is never found).
 */
import { decodeJson, encodeJson, isNoResponders, isTimeout, reply, type Msg, type Subscription } from '@rtm/bus';
import { ServiceError, isServiceError, type ErrorCode } from '@rtm/errors';
import { PRESENCE_DATA_MAX, serializeData } from '@rtm/presence';
import type { EdgeDeps } from '../edge-deps.ts';
import type { UserAuth } from '../auth/authenticate.ts';
import { Connection } from '../sockets/connect-socket.ts';

/** How long a gateway waits for the holder of a connection it does not hold. */
export const ASK_TIMEOUT_MS = 2_000;

export type EntryOp = 'presence-enter' | 'presence-leave';

/** Asking the gateway that holds a connection, and answering when it is this one. */
export type EntryRequestDeps = Pick<EdgeDeps, 'log' | 'nc' | 'sessions' | 'subjects'>;

interface EntryRequest {
  op: EntryOp;
  environmentId: string;
  userId: string;
  connectionId: string;
  channelId: string;
  data?: unknown;
}

type EntryAnswer = { ok: true } | { code: ErrorCode; reason: string; retryAfter?: number };

const notFound = () => new ServiceError('not_found', 'no open connection of yours has this connectionId (it closed, or is not yours)');

/** The user's open connection of that id on this gateway. */
function localConnection(deps: Pick<EdgeDeps, 'sessions'>, environmentId: string, userId: string, connectionId: string): Connection | undefined {
  for (const handle of deps.sessions.sockets.ofUser(environmentId, userId)) {
    if (handle.socketId === connectionId && handle instanceof Connection && !handle.link.closed) return handle;
  }
  return undefined;
}

/** The frame's outcome on a connection held here, as an answer on the bus. */
async function answerOf(connection: Connection, request: EntryRequest): Promise<EntryAnswer> {
  const outcome = await connection.presenceRequest(request.op, request.channelId, request.data);
  if ('ok' in outcome) return outcome;
  const error = isServiceError(outcome.error) ? outcome.error : new ServiceError('unavailable', 'temporarily unavailable: try again');
  const answer: EntryAnswer = { code: error.code, reason: error.reason ?? error.code };
  if (error.retryAfter !== undefined) answer.retryAfter = error.retryAfter;
  return answer;
}

/** Every gateway answers for the connections it holds; the subscription ends with the listener. */
export function answerEntryRequests(deps: EntryRequestDeps): Subscription {
  return deps.nc.subscribe(deps.subjects.connectionRequests, {
    callback: (error, msg) => {
      if (!error) void answerRequest(deps, msg);
    },
  });
}

async function answerRequest(deps: EntryRequestDeps, msg: Msg): Promise<void> {
  let request: EntryRequest;
  try {
    request = decodeJson<EntryRequest>(msg.data);
  } catch {
    return;
  }
  if (request.op !== 'presence-enter' && request.op !== 'presence-leave') return;
  const connection = localConnection(deps, request.environmentId, request.userId, request.connectionId);
  // not here: the gateway that holds it answers (or nobody, and the asker says not_found)
  if (!connection) return;
  try {
    reply(msg, await answerOf(connection, request));
  } catch (error) {
    deps.log.warn({ err: error }, 'presence entry request failed');
    reply(msg, { code: 'unavailable', reason: 'temporarily unavailable: try again' });
  }
}

/** Acts on the entry of `connectionId`'s subscription of the channel, wherever it is; throws the refusal. */
export async function presenceOfConnection(
  deps: EntryRequestDeps,
  auth: UserAuth,
  op: EntryOp,
  channelId: string,
  connectionId: string,
  data?: unknown,
): Promise<void> {
  // checked here too, so data over the limit never travels the bus (the holder checks it first as well)
  if (op === 'presence-enter' && serializeData(data) === undefined) {
    throw new ServiceError('payload_too_large', `data must be at most ${PRESENCE_DATA_MAX} bytes serialized`);
  }
  const request: EntryRequest = { op, environmentId: auth.environmentId, userId: auth.userId, connectionId, channelId };
  if (data !== undefined) request.data = data;
  const local = localConnection(deps, auth.environmentId, auth.userId, connectionId);
  let answer: EntryAnswer;
  if (local) {
    answer = await answerOf(local, request);
  } else {
    try {
      const msg = await deps.nc.request(deps.subjects.connectionRequests, encodeJson(request), { timeout: ASK_TIMEOUT_MS });
      answer = decodeJson<EntryAnswer>(msg.data);
    } catch (error) {
      if (isTimeout(error) || isNoResponders(error)) throw notFound();
      throw new ServiceError('unavailable', 'temporarily unavailable: try again');
    }
  }
  if ('ok' in answer) return;
  throw new ServiceError(answer.code, answer.reason, answer.retryAfter === undefined ? undefined : { retryAfter: answer.retryAfter });
}
