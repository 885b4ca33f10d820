/**
 * usePresence(channelId): who is online in a channel. It subscribes to the channel (sharing the
 * Client's one subscription with any useChannel of it), reads the roster (`presence.get()`) once
 * the subscription is ready and again after each resume, and applies the presence frames in
 * between, which the service sends only where `joinLeave` is on (docs/presence.md); without them
 * the list is the roster as of the last (re)subscription.
 */
import * as React from 'react';
import type { RtmError } from '@rtm/client';
import { useRealtimeClient } from './provider.ts';

export interface PresenceState {
  /** User ids online in the channel, sorted. */
  online: string[];
  /** True once the roster has been read. */
  ready: boolean;
  /** The last refusal (subscribe or roster), e.g. `forbidden`; null otherwise. */
  error: RtmError | null;
}

export function usePresence(channelId: string): PresenceState {
  const client = useRealtimeClient();
  const [state, setState] = React.useState<PresenceState>({ online: [], ready: false, error: null });
  React.useEffect(() => {
    const channel = client.channel(channelId);
    let live = true;
    let online = new Set<string>();
    let pending: Array<{ joined: string[]; left: string[] }> | null = null; // frames seen while the roster is read
    const publish = (ready: boolean) => live && setState({ online: [...online].sort(), ready, error: null });
    const apply = (change: { joined: string[]; left: string[] }) => {
      for (const userId of change.joined) online.add(userId);
      for (const userId of change.left) online.delete(userId);
    };
    const readRoster = async () => {
      pending = [];
      try {
        const roster = await channel.presence.get();
        online = new Set(roster.filter((entry) => entry.online).map((entry) => entry.userId));
        for (const change of pending) apply(change);
        pending = null;
        publish(true);
      } catch (error) {
        pending = null;
        if (live) setState((previous) => ({ ...previous, error: error as RtmError }));
      }
    };
    const offs = [
      channel.presence.on('change', (change) => {
        if (pending) pending.push(change);
        else {
          apply(change);
          publish(true);
        }
      }),
      channel.on('subscribed', ({ resumed }) => resumed && void readRoster()),
    ];
    const subscription = channel.subscribe(() => {});
    subscription.ready.then(
      () => readRoster(),
      (error: RtmError) => live && setState((previous) => ({ ...previous, error })),
    );
    return () => {
      live = false;
      for (const off of offs) off();
      void subscription.unsubscribe().catch(() => {});
    };
  }, [client, channelId]);
  return state;
}
