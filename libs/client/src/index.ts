/**
 * @rtm/client: one WebSocket (`GET /v1/connect`) for every channel and the inbox of a user, with
 * resume without gaps or duplicates, token renewal, and publishes queued while offline; where
 * WebSockets do not get through, Server-Sent Events and HTTP instead. See README.md for the API
 * and its guarantees.
 */
export { createClient, Client } from './client.ts';
export { Channel, Presence, type ChannelEvents, type PresenceEvents, type Subscription, type MessageListener } from './channel.ts';
export { Inbox, type InboxSubscription, type NotificationListener } from './inbox.ts';
export type { History } from './history.ts';
export { RtmError, type RtmErrorCode, type SdkErrorCode } from './errors.ts';
export type { Rewind } from './rewind.ts';
export type { Clock } from './clock.ts';
export type { TransportName } from './transport.ts';
export type {
  ClientOptions,
  ConnectionState,
  EditResult,
  FetchLike,
  HistoryOptions,
  Message,
  MessageUpdate,
  MessageVersion,
  Notification,
  PresenceBatch,
  Occupancy,
  PresenceChange,
  PresenceMember,
  PublishOptions,
  PublishResult,
  ReactionCount,
  ReactionResult,
  ReactionSummary,
  ReactionsUpdate,
  ReconnectOptions,
  RetractResult,
  Retraction,
  RosterEntry,
  StateChange,
  ClientEvents,
  WebSocketConstructor,
  WebSocketLike,
} from './types.ts';
