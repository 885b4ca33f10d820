/**
 * What a connection's logic uses of the transport under it: the multiplexed connection
 * (sockets/connect-socket.ts), its subscriptions and their readers (sessions/channel-replay.ts),
 * admission (sessions.ts), the revocation index and the send budget. A WebSocket is a SocketLink
 * (sessions/socket-link.ts); a server-sent event stream is an SseLink (sessions/sse-link.ts). Both
 * follow the same rules (send budget, slow consumer, token expiry, handshake deadline, drain,
 * closes from the one table in sockets/close-codes.ts), so `/v1/connect` and `/v1/events` share
 * every part of a connection above this line and cannot drift apart.
 */
import type { RawData } from 'ws';
import type { UserClaims } from '@rtm/auth';
import type { Closing } from '../sockets/close-codes.ts';
import type { SendBudget, Sheddable } from './send-budget.ts';

/**
 * A frame's JSON text, or that text already encoded as UTF-8: a feed encodes a frame once and the
 * same Buffer goes to every socket of the fan-out, instead of each socket measuring and encoding
 * its own copy of the string on the way to the kernel.
 */
export type FrameText = string | Buffer;

/** A link's watch in the gateway's revocation index (TokenSockets), left when the link closes. */
export interface TokenWatch {
  forget(link: Link): void;
}

export interface Link extends Sheddable {
  readonly socketId: string;
  /** The environment it belongs to once authenticated (sessions.admit): its share of the send budget. */
  environmentId: string;
  /** The token it is watched under for revocations (TokenSockets), and the index that watches it. */
  claims: UserClaims | undefined;
  tokens: TokenWatch | undefined;
  readonly closed: boolean;
  /** Sends one frame (serialised here); dropped once closing. */
  send(frame: object): void;
  /**
   * Sends one frame's text. `channelId` and `seq` name the channel position a persisted frame
   * (a message, a skip) carries: an event stream writes every channel's position into each event's
   * id, a WebSocket needs none.
   */
  sendText(text: FrameText, channelId?: string, seq?: number): void;
  /** Resolves once the queue is under half its limit (or the link closed): replays go at the client's pace. */
  drained(): Promise<void>;
  /** The handshake is done: its deadline is lifted. */
  established(): void;
  /** Closes with 4401 when its token expires. */
  expireAt(expiresAt: Date): void;
  /** Counts one received frame against the inbound rate; false when it must be dropped. */
  admit(data: RawData): boolean;
  /** Closes with an entry of the close table (sockets/close-codes.ts): the only way a link is closed. */
  closeWith(closing: Closing): void;
}

/** What a closing link lets go of, whatever its transport: its revocation watch, its timer entry and its share of the send budget. */
export function releaseLink(link: Link, clock: { clear(): void }, budget: SendBudget): void {
  link.tokens?.forget(link);
  link.tokens = undefined;
  clock.clear();
  budget.remove(link);
}
