import type { RtmError } from './errors.ts';
import type { MessageUpdate, Occupancy, PresenceChange, ReactionsUpdate, Retraction } from './types.ts';

/** A channel's events (`channel.on(name, listener)`); messages go to `subscribe`'s listeners. */
export interface ChannelEvents {
  /**
   * A message of the channel was retracted: live, and after a resume (`since`) one retracted while
   * the client was away. Remove it from what you show.
   */
  retract: (retraction: Retraction) => void;
  /**
   * A message of the channel changed: live, an edit (the message with its new `content` and
   * `version`); after a resume or a repaired gap, any change of an older message (an edit,
   * reactions), as the message is now. Replace the message you show. An update older than a
   * version already delivered (it arrived late) is not emitted.
   */
  update: (update: MessageUpdate) => void;
  /** The reactions of a message changed: its summary now (`{}` when none is left), at most one per message every 250 ms. */
  summary: (summary: ReactionsUpdate) => void;
  /** A user came online in, or left, the channel (one event per user of each presence frame). */
  presence: (change: PresenceChange) => void;
  /** The server confirmed a subscription (first time, and again after each resume). */
  subscribed: (info: { lastSeq: number; resumed: boolean }) => void;
  /**
   * The server ended the subscription. With `banned` or `forbidden` it stays ended (no automatic
   * re-subscription); with `unavailable` the SDK re-subscribes from its last seq.
   */
  unsubscribed: (info: { code: string; reason?: string; resubscribing: boolean }) => void;
  /** A subscription was refused or failed. */
  error: (error: RtmError) => void;
  /**
   * The channel's live counts (`connections`, `users`) over every gateway: soon after subscribing,
   * then at most once a second when they change. Adding the first listener asks the server for
   * them (re-subscribing from the last seq if already subscribed: nothing is missed). Needs the
   * `presence` capability and presence on in the channel's namespace.
   */
  occupancy: (occupancy: Occupancy) => void;
}
