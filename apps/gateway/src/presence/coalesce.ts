/**
 * Presence coalescing is @rtm/presence's (libs/presence/src/coalesce.ts); the channel feed
 * (channels/channel-feed.ts) still imports it from here.
 */
export { PRESENCE_WINDOW_MS, PresenceWindow, changesOf, type PresenceBatch, type PresenceChange } from '@rtm/presence';
