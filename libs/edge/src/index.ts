/**
 * @rtm/edge: the realtime edge's engine, which the gateway (apps/gateway) mounts on its
 * listeners. It holds the socket protocols (sockets/: the channel socket, the multiplexed
 * connection, the inbox socket, the event stream, and the close table), what every socket shares
 * (sessions/: links, replay, admission, send budget, deadlines), the publish path and channel
 * feeds (channels/), the sockets' side of presence (presence/, over libs/presence), kicks
 * (kicks/), access decisions and their cache (access/), the edge's rate limits and socket quotas
 * (limits/), what membership and ban changes do to live sockets (moderation/), and every
 * credential rule (auth/authenticate.ts). It knows nothing of the dashboard, the back office or
 * how the listeners are built: those are the gateway's.
 */
export * from './edge-deps.ts';
export * from './zod-app.ts';
export * from './access/access-cache.ts';
export * from './access/bans.ts';
export * from './access/channel-access.ts';
export * from './auth/authenticate.ts';
export * from './channels/batch-publish.ts';
export * from './channels/publish.ts';
export * from './channels/message-changes.ts';
export * from './channels/raw-content.ts';
export * from './kicks/kicks.ts';
export * from './moderation/moderation.ts';
export * from './presence/entry-requests.ts';
export * from './sessions/accept-link.ts';
export * from './sessions/client-frame.ts';
export * from './sessions/token-sockets.ts';
export { HandshakePacer } from './sessions/handshake-pacer.ts';
export * from './socket-events.ts';
export * from './sockets/channel-socket.ts';
export * from './sockets/close-codes.ts';
export * from './sockets/connect-socket.ts';
export * from './sockets/events-stream.ts';
export * from './sockets/inbox-socket.ts';
export * from './sockets/frame-limits.ts';
export * from './sockets/gateway-web-socket.ts';
export { countConnections } from './usage-events.ts';
