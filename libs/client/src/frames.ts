import type { Channel } from './channel.ts';
import { RtmError } from './errors.ts';
import type { Inbox } from './inbox.ts';
import type { Message, MessageUpdate, Notification, PresenceMember, ReactionSummary, ReactionsUpdate, Retraction } from './types.ts';

/** Reading the server's frames, and the URLs the client talks to. */

/**
 * A presence frame's joins and leaves: `{joined, left}` (one frame per channel and interval) with
 * its entries when it has them (`entered`, `updated`: `{userId, data}`; `exited`: ids), or the
 * single-change `{userId, online}` of older servers.
 */
export function presenceOf(frame: Record<string, unknown>): {
  joined: string[];
  left: string[];
  entered?: PresenceMember[];
  updated?: PresenceMember[];
  exited?: string[];
} {
  const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  const members = (value: unknown): PresenceMember[] =>
    (Array.isArray(value) ? value : [])
      .filter((entry): entry is { userId: string; data?: unknown } => entry !== null && typeof entry === 'object' && typeof entry.userId === 'string')
      .map((entry) => ({ userId: entry.userId, data: entry.data ?? null }));
  if (Array.isArray(frame.joined) || Array.isArray(frame.left)) {
    const out: ReturnType<typeof presenceOf> = { joined: ids(frame.joined), left: ids(frame.left) };
    if (Array.isArray(frame.entered)) out.entered = members(frame.entered);
    if (Array.isArray(frame.updated)) out.updated = members(frame.updated);
    if (Array.isArray(frame.exited)) out.exited = ids(frame.exited);
    return out;
  }
  if (typeof frame.userId !== 'string') return { joined: [], left: [] };
  return frame.online === true ? { joined: [frame.userId], left: [] } : { joined: [], left: [frame.userId] };
}

/** The error an `error` frame states (`retryAfter` in seconds when the server gave one). */
export function errorOf(frame: Record<string, unknown>): RtmError {
  const retryAfter = typeof frame.retryAfter === 'number' && frame.retryAfter >= 0 ? frame.retryAfter : undefined;
  return new RtmError(str(frame.code) ?? 'internal', str(frame.reason), { retryAfter });
}

/** A frame's field when it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The socket URL (`ws(s)://…/v1/connect`) and the HTTP base of the realtime edge. */
export function parseBaseUrl(input: string): { socket: string; http: string } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new RtmError('invalid_request', `url is not a URL: ${JSON.stringify(input)}`);
  }
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!secure && url.protocol !== 'http:' && url.protocol !== 'ws:') {
    throw new RtmError('invalid_request', 'url must be http(s) or ws(s)');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return {
    socket: `${secure ? 'wss' : 'ws'}://${url.host}${path}/v1/connect`,
    http: `${secure ? 'https' : 'http'}://${url.host}${path}`,
  };
}

/**
 * Hands a frame of a channel's or the inbox's subscription to it: true when `op` is one of theirs
 * (a frame of a channel this client does not hold is dropped), false for the connection's own.
 */
export function routeSubscriptionFrame(frame: Record<string, unknown>, channel: Channel | undefined, inbox: Inbox): boolean {
  switch (frame.op) {
    case undefined:
      channel?.onMessage(frame as unknown as Message);
      return true;
    case 'subscribed':
      channel?.onSubscribed(frame.ref, typeof frame.lastSeq === 'number' ? frame.lastSeq : 0);
      return true;
    case 'unsubscribed':
      channel?.onUnsubscribed(frame.ref, str(frame.code), str(frame.reason));
      return true;
    case 'retract':
      channel?.onRetract(retractionOf(frame));
      return true;
    case 'update':
      if (typeof frame.eventSeq === 'number' && typeof frame.id === 'string') channel?.onUpdate(updateOf(frame));
      return true;
    case 'summary':
      if (typeof frame.eventSeq === 'number' && typeof frame.id === 'string') channel?.onSummary(summaryOf(frame));
      return true;
    case 'skip':
      if (typeof frame.seq === 'number') channel?.onSkip(frame.seq);
      return true;
    case 'presence':
      channel?.onPresence(presenceOf(frame));
      return true;
    case 'presence-entered':
    case 'presence-updated':
    case 'presence-left':
      channel?.onPresenceAnswer(frame.ref);
      return true;
    case 'occupancy':
      if (typeof frame.connections === 'number' && typeof frame.users === 'number')
        channel?.onOccupancy({ connections: frame.connections, users: frame.users });
      return true;
    case 'notification':
      inbox.onNotification(frame as unknown as Notification);
      return true;
    case 'inbox-subscribed':
      inbox.onSubscribed(frame.ref);
      return true;
    case 'inbox-unsubscribed':
      inbox.onUnsubscribed(frame.ref);
      return true;
    default:
      return false;
  }
}

/** A `retract` frame: the message's `seq`, and the retraction's `eventSeq` when the server sends one. */
function retractionOf(frame: Record<string, unknown>): Retraction {
  const retraction: Retraction = { channelId: String(frame.channelId), id: String(frame.id), seq: Number(frame.seq) };
  if (typeof frame.eventSeq === 'number') retraction.eventSeq = frame.eventSeq;
  if (typeof frame.reason === 'string') retraction.reason = frame.reason;
  return retraction;
}

/** An `update` frame: the message envelope (with `channelId` and `eventSeq`) without `op`. */
function updateOf(frame: Record<string, unknown>): MessageUpdate {
  const { op: _op, ...message } = frame;
  return message as unknown as MessageUpdate;
}

/** A `summary` frame: the message, its reactions now, and the change's place. */
function summaryOf(frame: Record<string, unknown>): ReactionsUpdate {
  const reactions = frame.reactions !== null && typeof frame.reactions === 'object' && !Array.isArray(frame.reactions) ? frame.reactions : {};
  return {
    channelId: String(frame.channelId),
    id: String(frame.id),
    seq: Number(frame.seq),
    eventSeq: frame.eventSeq as number,
    reactions: reactions as ReactionSummary,
  };
}
