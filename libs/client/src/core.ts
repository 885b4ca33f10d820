import type { Clock } from './clock.ts';
import type { RtmError } from './errors.ts';
import type { HttpContext } from './http.ts';
import type { OutboxKind } from './outbox.ts';

/**
 * What a channel and the inbox need from the client: the connection they share. Internal; the
 * public API is Client, Channel and Inbox.
 */
export interface Core {
  readonly clock: Clock;
  readonly random: () => number;
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
  readonly http: HttpContext;
  /** True while the connection is up (`connected`). */
  isConnected(): boolean;
  /** The connection's transport: on `sse` the inbox, presence enter/update/leave and moderation frames have no form. */
  transport(): 'websocket' | 'sse';
  /** A ref no other frame of this client has used. */
  nextRef(): number;
  /** Sends a frame on the open connection (a no-op when there is none). */
  send(frame: Record<string, unknown>): void;
  /** Queues a publish, retraction, edit or reaction and resolves with its `ack`. */
  enqueue<Result>(kind: OutboxKind, channelId: string, frame: Record<string, unknown>, ephemeral: boolean): Promise<Result>;
  /** An error not tied to a call. */
  reportError(error: RtmError): void;
}
