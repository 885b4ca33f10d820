/**
 * The multiplexed socket's client frames (connect-socket.ts dispatches them): reading one against
 * `ConnectFrame`, the error frame that refuses a request, and the requests that act on a channel
 * without a subscription (publish, retract, moderation), and the presence entry of a subscription
 * (`presence-enter`, `-update`, `-leave`). Plain functions over the connection, so an idle
 * connection keeps no closure for them.
 */
import type { RawData } from 'ws';
import { ServiceError, isServiceError } from '@rtm/errors';
import { PRESENCE_DATA_MAX, serializeData } from '@rtm/presence';
import { ConnectFrame } from '@rtm/schemas';
import type { ConnectDeps } from './connect-socket.ts';
import type { UserAuth } from '../auth/authenticate.ts';
import { authorize, authorizeModeration, authorizeRetract } from '../access/channel-access.ts';
import { putBan, removeBan, removeMember } from '../moderation/moderation.ts';
import { sendPublish } from '../channels/publish.ts';
import { contentText } from '../channels/raw-content.ts';
import { userEdit, userReaction } from '../channels/message-changes.ts';
import { readClientFrame } from '../sessions/client-frame.ts';
import { SOCKET_CLOSE } from './close-codes.ts';
import type { Presence } from '../presence/presence.ts';
import type { ChannelSocketHandle } from '../socket-events.ts';

/** A request's `ref`, echoed by its answer. */
export type Ref = string | number;
export type Frame<Op extends ConnectFrame['op']> = Extract<ConnectFrame, { op: Op }>;

/** What a request uses of its connection. */
export interface RequestOwner {
  readonly deps: ConnectDeps;
  readonly auth: UserAuth;
  send(frame: object): void;
  refuse(ref: Ref | undefined, channelId: string | undefined, error: unknown): void;
}

/**
 * A client frame read and checked: the frame with its text as it arrived (a publish's content is
 * sliced from it), or the error frame answering it (its `ref` and `channelId` when it had them).
 */
export function readConnectFrame(data: RawData, isBinary: boolean): { frame: ConnectFrame; text: string } | { error: Record<string, unknown> } {
  const read = readClientFrame(data, isBinary);
  if (!read.ok) return { error: { op: 'error', code: read.code, reason: read.reason } };
  const raw = read.value as { ref?: unknown; channelId?: unknown } | null;
  const parsed = ConnectFrame.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.');
    const frame: Record<string, unknown> = { op: 'error' };
    if (typeof raw?.ref === 'string' || typeof raw?.ref === 'number') frame.ref = raw.ref;
    if (typeof raw?.channelId === 'string') frame.channelId = raw.channelId;
    frame.code = 'invalid_request';
    frame.reason = `${path ? `${path}: ` : ''}${issue?.message ?? 'invalid frame'}`;
    return { error: frame };
  }
  return { frame: parsed.data, text: read.text };
}

/** The error frame refusing one request: its ServiceError, or `unavailable` for anything unexpected. */
export function refusalFrame(ref: Ref | undefined, channelId: string | undefined, error: unknown): Record<string, unknown> {
  const serviceError = isServiceError(error) ? error : new ServiceError('unavailable', 'temporarily unavailable: try again');
  const frame: Record<string, unknown> = { op: 'error' };
  if (ref !== undefined) frame.ref = ref;
  if (channelId !== undefined) frame.channelId = channelId;
  frame.code = serviceError.code;
  frame.reason = serviceError.reason ?? serviceError.code;
  if (serviceError.retryAfter !== undefined) frame.retryAfter = serviceError.retryAfter;
  if (serviceError.quota !== undefined) frame.quota = serviceError.quota;
  return frame;
}

/** `publish`, `retract`, `edit`, `react` or `unreact`; `text`: the frame as it arrived, for a publish's or an edit's content as sent. */
export async function command(
  owner: RequestOwner,
  frame: Frame<'publish'> | Frame<'retract'> | Frame<'edit'> | Frame<'react'> | Frame<'unreact'>,
  text: string,
): Promise<void> {
  const { deps, auth } = owner;
  const { ref, channelId } = frame;
  try {
    if (frame.op === 'publish') {
      await authorize(deps, auth, channelId, 'publish');
      if (!(await deps.limits.admitPublish(auth, frame.mentions?.length ?? 0))) {
        throw new ServiceError('rate_limited', SOCKET_CLOSE.publishRateLimited.reason, { retryAfter: 1 });
      }
      const fields = { ...frame, content: contentText(text) };
      const result = await sendPublish(deps, auth.environmentId, channelId, fields, 'user', { id: auth.userId, anon: auth.anon }, 'socket');
      owner.send({ op: 'ack', ref, channelId, ...result });
    } else if (frame.op === 'edit') {
      await authorize(deps, auth, channelId, 'edit');
      if (!(await deps.limits.admitPublish(auth, 0))) {
        throw new ServiceError('rate_limited', SOCKET_CLOSE.publishRateLimited.reason, { retryAfter: 1 });
      }
      const result = await userEdit(deps, auth, channelId, frame.id, contentText(text));
      owner.send({ op: 'ack', ref, channelId, ...result });
    } else if (frame.op === 'react' || frame.op === 'unreact') {
      await authorize(deps, auth, channelId, 'react');
      await deps.limits.admitEdge(auth, 'react');
      const result = await userReaction(deps, auth, channelId, frame.id, frame.type, frame.op === 'unreact');
      owner.send({ op: 'ack', ref, channelId, ...result });
    } else {
      const onlySender = await authorizeRetract(deps, auth, channelId);
      await deps.limits.admitEdge(auth, 'retract');
      const result = await deps.owners.send({
        op: 'retract',
        environmentId: auth.environmentId,
        channelId,
        messageId: frame.id,
        reason: frame.reason,
        onlySender,
      });
      owner.send({ op: 'ack', ref, channelId, ...result });
    }
  } catch (error) {
    owner.refuse(ref, channelId, error);
  }
}

/** A moderator's frames: the same rule and implementation as the realtime edge's routes. */
export async function moderate(owner: RequestOwner, frame: Frame<'remove-member'> | Frame<'ban-member'> | Frame<'unban-member'>): Promise<void> {
  const { deps, auth } = owner;
  const { ref, channelId, userId } = frame;
  try {
    await authorizeModeration(deps, auth, channelId, userId);
    await deps.limits.admitEdge(auth, 'moderation');
    if (frame.op === 'remove-member') {
      await removeMember(deps, auth.environmentId, channelId, userId);
      owner.send({ op: 'member-removed', ref, channelId, userId });
    } else if (frame.op === 'ban-member') {
      const ban = await putBan(deps, auth.environmentId, channelId, userId, { reason: frame.reason, expiresAt: frame.expiresAt });
      owner.send({ op: 'member-banned', ref, channelId, userId, reason: ban.reason, expiresAt: ban.expiresAt });
    } else {
      await removeBan(deps, auth.environmentId, channelId, userId);
      owner.send({ op: 'member-unbanned', ref, channelId, userId });
    }
  } catch (error) {
    owner.refuse(ref, channelId, error);
  }
}

/** The subscription a presence frame acts on, as the connection holds it. */
export interface PresenceHolder extends ChannelSocketHandle {
  readonly ended: boolean;
}

/**
 * `presence-enter`, `presence-update`, `presence-leave`: the entry of the connection's
 * subscription of the channel (docs/presence.md, "Presence data"). Entering and updating need the
 * rule's `presence` (read access and the capability), presence on in the namespace and a live
 * subscription of the channel on this connection; leaving needs nothing and is idempotent.
 */
export async function presenceEntry(
  owner: RequestOwner,
  presence: Presence,
  frame: Frame<'presence-enter'> | Frame<'presence-update'> | Frame<'presence-leave'>,
  subscription: PresenceHolder | undefined,
): Promise<void> {
  const { ref, channelId } = frame;
  try {
    if (frame.op === 'presence-leave') {
      if (subscription && !subscription.ended) presence.exit(subscription);
      return owner.send({ op: 'presence-left', ref, channelId });
    }
    const data = serializeData(frame.data);
    if (data === undefined) throw new ServiceError('payload_too_large', `data must be at most ${PRESENCE_DATA_MAX} bytes serialized`);
    const standing = await authorize(owner.deps, owner.auth, channelId, 'presence');
    if (!standing.namespace.presence) {
      throw new ServiceError('forbidden', "presence is off in this channel's namespace (`presence: false`): nobody can enter it");
    }
    // checked after the await: the subscription may have ended meanwhile
    if (!subscription || subscription.ended) {
      throw new ServiceError('invalid_request', 'subscribe to the channel on this connection before entering its presence');
    }
    presence.enter(subscription, data, frame.op === 'presence-update');
    owner.send({ op: frame.op === 'presence-enter' ? 'presence-entered' : 'presence-updated', ref, channelId });
  } catch (error) {
    owner.refuse(ref, channelId, error);
  }
}
