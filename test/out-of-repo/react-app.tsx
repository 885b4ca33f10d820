/**
 * A React app outside this repository, on the packed @rtm/react and @rtm/client and on React
 * from npm: test/browser.react.test.ts type-checks it against the packages' own declarations,
 * bundles it with esbuild and opens it in Chromium, once per user. It renders the connection
 * state, the channel's messages (the last three of its history, then live) and who is online;
 * the test reads the DOM. In StrictMode, so every effect mounts, unmounts and mounts again.
 *
 * Query string: realtime (the realtime edge), token (the user's), channel.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Message } from '@rtm/client';
import { RealtimeProvider, useChannel, useConnectionState, usePresence } from '@rtm/react';

const params = new URLSearchParams(location.search);
const realtime = params.get('realtime')!;
const token = params.get('token')!;
const channelId = params.get('channel')!;

function ConnectionState() {
  return <p id="state">{useConnectionState()}</p>;
}

function Messages() {
  const [messages, setMessages] = useState<Message[]>([]);
  const { ready, error } = useChannel(channelId, (message) => setMessages((list) => [...list, message]), { history: 3 });
  return (
    <section>
      <p id="channel">{error ? `error ${error.code}` : ready ? 'ready' : 'loading'}</p>
      <ol id="messages">
        {messages.map((message) => (
          <li key={message.id} data-seq={message.seq}>
            {String(message.content?.text)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Online() {
  const { online, ready } = usePresence(channelId);
  return (
    <ul id="online" data-ready={String(ready)}>
      {online.map((userId) => (
        <li key={userId}>{userId}</li>
      ))}
    </ul>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RealtimeProvider options={{ url: realtime, getToken: () => token, reconnect: { initialDelayMs: 100, maxDelayMs: 500 } }}>
      <ConnectionState />
      <Messages />
      <Online />
    </RealtimeProvider>
  </StrictMode>,
);
