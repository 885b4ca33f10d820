/**
 * @rtm/react: React bindings over @rtm/client. A RealtimeProvider holds one Client; the hooks
 * read it: useChannel (history, then live, resumed; and the changes of messages), usePresence
 * (who is online), useConnectionState; withUpdate, withSummary and withRetraction apply changes
 * to a list of messages. See README.md.
 */
export { RealtimeProvider, useRealtimeClient, type RealtimeProviderProps } from './provider.ts';
export { useChannel, type ChannelState, type UseChannelOptions } from './use-channel.ts';
export { withUpdate, withSummary, withRetraction } from './message-list.ts';
export { usePresence, type PresenceState } from './use-presence.ts';
export { useConnectionState } from './use-connection-state.ts';
