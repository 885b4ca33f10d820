/** useConnectionState: the Client's connection state, re-rendering on every change. */
import * as React from 'react';
import type { ConnectionState } from '@rtm/client';
import { useRealtimeClient } from './provider.ts';

/** 'connecting' | 'connected' | 'disconnected' | 'suspended' | 'closed' (see @rtm/client's README). */
export function useConnectionState(): ConnectionState {
  const client = useRealtimeClient();
  const subscribe = React.useCallback((changed: () => void) => client.on('state', changed), [client]);
  return React.useSyncExternalStore(
    subscribe,
    () => client.state,
    () => client.state,
  );
}
