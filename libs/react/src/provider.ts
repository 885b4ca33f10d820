/**
 * RealtimeProvider: puts one @rtm/client Client in React context for the hooks below it, either
 * yours (`client`, left open when the provider unmounts) or one it makes from the createClient
 * options (`options`: connected on mount, closed on unmount, connected again on a remount, so
 * React's StrictMode double mount is harmless).
 */
import * as React from 'react';
import { createClient, type Client, type ClientOptions } from '@rtm/client';

export type RealtimeProviderProps = { children?: React.ReactNode } & ({ client: Client; options?: never } | { options: ClientOptions; client?: never });

const ClientContext = React.createContext<Client | null>(null);

export function RealtimeProvider(props: RealtimeProviderProps): React.ReactElement {
  const { client: given, options } = props;
  // made once per provider; options passed to later renders are ignored (as createClient's would be)
  const [own] = React.useState(() => (given ? null : createClient({ ...options!, autoConnect: false })));
  React.useEffect(() => {
    if (!own) return undefined;
    own.connect();
    return () => own.close();
  }, [own]);
  return React.createElement(ClientContext.Provider, { value: given ?? own }, props.children);
}

/** The Client of the nearest RealtimeProvider; throws outside of one. */
export function useRealtimeClient(): Client {
  const client = React.useContext(ClientContext);
  if (!client) throw new Error('@rtm/react: a hook of @rtm/react was used outside of a <RealtimeProvider>');
  return client;
}
