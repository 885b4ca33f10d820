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
 *
 * Its surface is named here, export by export: what the gateway mounts and calls, nothing more.
 * Everything else is the engine's own (tests reach it by path).
 */
export { createEdgeDeps, type EdgeDeps } from './edge-deps.ts';
export type { Host, ZodApp } from './zod-app.ts';
export { announceAccessChange } from './access/access-cache.ts';
export { environmentBan } from './access/bans.ts';
export { authorize, authorizeModeration, authorizeRetract, channelAccessOf, namespaceOf } from './access/channel-access.ts';
export { keyAuth, requireAnonymousMinter, requireSecretKey, requireUser, userAuth } from './auth/authenticate.ts';
export { publishBatch } from './channels/batch-publish.ts';
export { sendPublish } from './channels/publish.ts';
export { sendEdit, sendReaction, userEdit, userReaction } from './channels/message-changes.ts';
export { batchContentTexts, contentText } from './channels/raw-content.ts';
export { recheckChannel, recheckEnvironment } from './kicks/kicks.ts';
export { ENVIRONMENT_WIDE, putBan, putMember, removeBan, removeMember, type Audit } from './moderation/moderation.ts';
export { answerEntryRequests, presenceOfConnection } from './presence/entry-requests.ts';
export { linkAcceptor } from './sessions/accept-link.ts';
export { readClientFrame } from './sessions/client-frame.ts';
export { TokenSockets } from './sessions/token-sockets.ts';
export { HandshakePacer } from './sessions/handshake-pacer.ts';
export { SocketEvents, type SocketHandle } from './socket-events.ts';
export { channelSocketRoutes } from './sockets/channel-socket.ts';
export { SOCKET_CLOSE, SOCKET_CLOSE_WITH } from './sockets/close-codes.ts';
export { connectSocketRoutes } from './sockets/connect-socket.ts';
export { eventsStreamRoutes } from './sockets/events-stream.ts';
export { inboxSocket } from './sockets/inbox-socket.ts';
export { MAX_FRAME_BYTES } from './sockets/frame-limits.ts';
export { GatewayWebSocket } from './sockets/gateway-web-socket.ts';
export { countConnections } from './usage-events.ts';
