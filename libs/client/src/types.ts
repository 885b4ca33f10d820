import type { Clock } from './clock.ts';
import type { RtmError } from './errors.ts';

/** Connection states, announced by the client's `state` event. */
export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'suspended' | 'closed';

export interface StateChange {
  previous: ConnectionState;
  /** The WebSocket close code that caused it, when there was one. */
  code?: number;
  reason?: string;
  /** When the next attempt starts (disconnected, suspended). */
  retryInMs?: number;
}

/** A message of a channel, as the server sends it, plus the channel's id. */
export interface Message {
  channelId: string;
  id: string;
  seq: number;
  type: string;
  kind: 'user' | 'server' | 'system';
  /** null for a retracted message (a tombstone). */
  content: Record<string, unknown> | null;
  sender: { id: string; anon: boolean };
  timestamp: number;
  retracted: boolean;
  ephemeral: boolean;
  to?: string[];
  mentions?: string[];
  /** The content's version: 2 after the first edit; absent for a message never edited (version 1). */
  version?: number;
  /** When the last edit committed (ms since the epoch); only on an edited message. */
  updatedAt?: number;
  /** Who made the last edit (null: the backend); only on an edited message. */
  updatedBy?: string | null;
  /** Who reacted, by reaction type; absent when nobody did. */
  reactions?: ReactionSummary;
}

/** One reaction type of a message: how many users reacted with it and the first of them. */
export interface ReactionCount {
  count: number;
  /** The first 10 users who reacted with this type, oldest first. */
  users: string[];
  /** `users` does not name everyone (`count` is larger). */
  clipped: boolean;
}

/** Reaction type (a short name or an emoji) → who reacted with it. */
export type ReactionSummary = Record<string, ReactionCount>;

/**
 * A message that changed (`update` event): the message as it is now, and the change's place in the
 * channel's sequence. Live, an edit (new `content`, `version`, `updatedAt`, `updatedBy`); after a
 * resume or a repaired gap, any change of an older message (an edit, reactions) as it is now.
 * Replace the message you show with it.
 */
export interface MessageUpdate extends Message {
  eventSeq: number;
}

/** A message's reactions changed (`summary` event): its summary now, `{}` when none is left. */
export interface ReactionsUpdate {
  channelId: string;
  /** The message's id and seq. */
  id: string;
  seq: number;
  /** The change's place in the channel's sequence. */
  eventSeq: number;
  reactions: ReactionSummary;
}

/** A notification of the user's inbox. */
export interface Notification {
  op: 'notification';
  id: string;
  type: string;
  payload: unknown;
  timestamp: number;
}

export interface Retraction {
  channelId: string;
  id: string;
  /** The message's seq. */
  seq: number;
  /** The retraction's place in the channel's sequence (absent from servers that do not send it). */
  eventSeq?: number;
  reason?: string;
}

export interface PresenceChange {
  channelId: string;
  userId: string;
  online: boolean;
}

/** A channel's live counts over every gateway, from an `occupancy` frame. */
export interface Occupancy {
  channelId: string;
  /** Live subscriptions of the channel. */
  connections: number;
  /** Distinct users among them. */
  users: number;
}

/** A user's presence entry: the data they entered with (`null` when entered without). */
export interface PresenceMember {
  userId: string;
  data: unknown;
}

/**
 * The users who came online in (`joined`) or left (`left`) a channel, and who entered, updated or
 * exited its presence (each of those only when not empty), from one presence frame.
 */
export interface PresenceBatch {
  channelId: string;
  joined: string[];
  left: string[];
  entered?: PresenceMember[];
  updated?: PresenceMember[];
  exited?: string[];
}

export interface RosterEntry {
  userId: string;
  role: 'member' | 'moderator' | 'readonly';
  online: boolean;
  /** The presence data of a user online who entered (`null` when entered without); absent otherwise. */
  data?: unknown;
}

export interface PublishOptions {
  /** 1–64 characters; the server's default is "message". */
  type?: string;
  /** Only these users (and the sender) receive it. */
  to?: string[];
  mentions?: string[];
  /** Fan out live only: not persisted, no seq of its own, never re-sent after a lost connection. */
  ephemeral?: boolean;
  /** Set automatically when omitted; the same key on the same channel within 24 h creates the message once. */
  idempotencyKey?: string;
}

export interface PublishResult {
  id: string;
  /**
   * The message's seq; for an ephemeral message on a WebSocket, the channel's last persisted seq.
   * On the `sse` transport an ephemeral publish's HTTP answer has no seq, and this is undefined
   * (the one place the type says more than the transport gives).
   */
  seq: number;
  timestamp?: number;
  ephemeral?: true;
}

export interface RetractResult {
  id: string;
  seq: number;
  /** The retraction's place in the channel's sequence; absent when the message was already retracted. */
  eventSeq?: number;
}

export interface EditResult {
  id: string;
  /** The message's seq. */
  seq: number;
  /** The new version: 2 after the first edit. */
  version: number;
  /** When the edit committed (ms since the epoch). */
  updatedAt: number;
  /** The edit's place in the channel's sequence. */
  eventSeq: number;
}

export interface ReactionResult {
  id: string;
  /** The message's seq. */
  seq: number;
  type: string;
  /** Whether the user now has this reaction on the message. */
  reacted: boolean;
}

/** A version of a message's content (`channel.versions`). */
export interface MessageVersion {
  version: number;
  content: Record<string, unknown>;
  /** null for version 1 (its time is the message's `timestamp`). */
  updatedAt: number | null;
  /** Who made this version: the editor's user id; null for version 1 and the backend's edits. */
  updatedBy: string | null;
}

export interface HistoryOptions {
  /** Messages per page request, 1–500 (default 50). */
  limit?: number;
  /** Only messages with seq below this. */
  before?: number;
  /** Only messages with seq above this; the iteration then runs oldest first. */
  after?: number;
  /**
   * The iteration's order (each page the HTTP route returns is ascending by seq either way):
   * `'backwards'`, newest first, the default without `after`; `'forwards'`, oldest first, the
   * default with `after` (without it, from the channel's first message). `'backwards'` with
   * `after` is refused (`invalid_request`).
   */
  direction?: 'backwards' | 'forwards';
}

/** A WebSocket as the SDK uses it: the browser's, or `ws`'s in Node. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * What the SDK needs of `fetch`. Server-Sent Events (the `sse` transport) also need `body` (a
 * request body, for publishes), `signal` (to end a stream) and a streaming response `body` with
 * `getReader()`, as browsers' and Node 20's fetch have.
 */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: any },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string>; body?: any }>;

export interface ReconnectOptions {
  /** Ceiling of the first retry's random delay (default 500 ms); it doubles per failed attempt. */
  initialDelayMs?: number;
  /** Largest retry delay (default 30 s). */
  maxDelayMs?: number;
  /** Without a connection for this long, the client is `suspended` (default 60 s). */
  suspendAfterMs?: number;
  /** On the `sse` transport, how often a WebSocket is tried again (default 60 s). */
  webSocketRetryMs?: number;
}

export interface ClientOptions {
  /** The realtime edge's base URL, http(s) or ws(s); the socket is `<url>/v1/connect`. */
  url: string;
  /** Returns a user token: called to connect, before the token expires, and after a 4401. */
  getToken: () => string | Promise<string>;
  /** The WebSocket constructor; default `globalThis.WebSocket` (in Node 20 pass `ws`'s). */
  WebSocket?: WebSocketConstructor;
  /** For history, rosters, and the `sse` transport; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /**
   * The transports the client may use, in order of preference (default `['websocket', 'sse']`):
   * on a WebSocket while it gets through, else Server-Sent Events for receiving and HTTP for
   * publishing. `['websocket']` or `['sse']` keeps it on one.
   */
  transports?: ('websocket' | 'sse')[];
  reconnect?: ReconnectOptions;
  /**
   * Publishes held while not connected (default 100), edits, reactions and retractions included;
   * past it the call rejects with `queue_full`.
   */
  maxQueuedPublishes?: number;
  /** Connect at once (default true); otherwise the client starts `closed` until `connect()`. */
  autoConnect?: boolean;
  /** With no frame received for this long, the client pings; no answer within 10 s drops the connection (default 30 s). */
  heartbeatMs?: number;
  /** Time and randomness, for tests. */
  clock?: Clock;
  random?: () => number;
}

/** The client's events (`client.on(name, listener)`). */
export interface ClientEvents {
  state: (state: ConnectionState, change: StateChange) => void;
  /** The client moved to another transport (`client.transport`). */
  transport: (transport: 'websocket' | 'sse') => void;
  error: (error: RtmError) => void;
}
