/**
 * Generated from docs/openapi.json by openapi-typescript: run `npm run generate -w @rtm/server`
 * (or `npm run sdk:generate` at the root) after the document changes. Do not edit by hand.
 */

export interface paths {
    "/v1/bans/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an environment-wide ban
         * @description Secret key. 404 `not_found` when the user has no live (unexpired) environment-wide ban.
         */
        get: operations["getEnvironmentBan"];
        /**
         * Ban a user from the environment
         * @description Secret key. Upsert: a second PUT replaces reason and expiry. `expiresAt` (ISO 8601) must be in the future; without it the ban lasts until deleted. The user's live sockets are closed with 4403 on every gateway. An environment-wide ban refuses new tokens (403 `banned` on POST /v1/tokens), every channel and the inbox; tokens minted before it are refused wherever they are used.
         */
        put: operations["banFromEnvironment"];
        post?: never;
        /**
         * Lift an environment-wide ban
         * @description Secret key. Idempotent: 204 whether or not a ban existed.
         */
        delete: operations["unbanFromEnvironment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a channel's access
         * @description Secret key. `open`: any user token of the environment may read and publish; `members`: only members. Overrides the environment's deployed default for this channel; the channel is created if it does not exist yet. Switching to `members` closes the live sockets of non-members on every gateway with 4403.
         */
        put: operations["setChannelAccess"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/bans/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a channel ban
         * @description Secret key. 404 `not_found` when the user has no live (unexpired) ban on the channel.
         */
        get: operations["getChannelBan"];
        /**
         * Ban a user from a channel
         * @description Secret key. Upsert: a second PUT replaces reason and expiry. `expiresAt` (ISO 8601) must be in the future; without it the ban lasts until deleted. The user's live sockets are closed with 4403 on every gateway. A banned user cannot subscribe, publish, read history or the roster of the channel.
         */
        put: operations["banFromChannel"];
        post?: never;
        /**
         * Lift a channel ban
         * @description Secret key. Idempotent: 204 whether or not a ban existed.
         */
        delete: operations["unbanFromChannel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read message history
         * @description Persisted messages ascending by seq. `limit` default 50, max 500; `before`/`after` are exclusive seq bounds. With `after` the page is the oldest messages after it; otherwise the newest (before `before`, if given). `hasMore` says more messages exist beyond the page in that direction (older without `after`, newer with it). Retracted messages appear tombstoned. A channel with no messages answers an empty page. Realtime edge: needs read access; messages addressed with `to` are shown only to their addressees and sender.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a channel's roster
         * @description User token, or secret key on the control plane. A user must be allowed to read the channel (403 `forbidden` or `banned` otherwise). `online` is live presence across all gateways: true while the user holds at least one socket on this channel (GET /v1/channels/{id}) on any gateway; a gateway that dies stops counting after PRESENCE_TTL_MS (default 15 s). A `members` channel lists its members. An `open` channel lists its members plus every user currently online in it; those who are not members appear with role `member`. Sorted by userId. Banned users are left out.
         */
        get: operations["getRoster"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add a channel member or change their role
         * @description Secret key. Idempotent upsert: the role defaults to `member` and a PUT replaces it. The channel need not exist yet and the user need not have connected before (user ids are not registered anywhere). Membership matters for `members` channels; bans still win over it.
         */
        put: operations["putMember"];
        post?: never;
        /**
         * Remove a channel member
         * @description Secret key. Idempotent: 204 whether or not the user was a member. The user's live sockets on this channel, on every gateway, are closed with 4403 (even in an `open` channel, where they may reconnect).
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a message
         * @description Answered only after the message is committed (201), or after an ephemeral message was handed to the channel owner for fan-out (202; not persisted, no webhook, no history, no seq advance). The same `idempotencyKey` on the same channel within 24 h returns the first result and creates nothing. 503 `unavailable` when no channel owner answers within OWNER_TIMEOUT_MS: if the owner timed out the outcome is unknown, so retry with an `idempotencyKey`. Control plane (secret key): kind "server", sender `senderId` (default "server"), no access checks. Realtime edge (user token): kind "user", the sender is the token's user (`senderId` is refused with 400); needs publish access (403 `forbidden` or `banned`).
         */
        post: operations["publishMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Retract a message
         * @description Replaces the content with a tombstone (history shows it with `retracted: true`, `content: null`), sends `{op:"retract", id, seq, reason?}` on sockets and a `message.retracted` webhook. Idempotent: a second retraction changes nothing and emits nothing. 404 for a message not in this channel. The body (`reason`) may be left out. Realtime edge: only the sender may retract (403 forbidden).
         */
        delete: operations["retractMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The active configuration
         * @description Before the first deploy: `deploymentId` and `activatedAt` are null and the defaults are shown.
         */
        get: operations["getConfig"];
        /**
         * Deploy a configuration
         * @description Validates, stores a deployment and activates it, in one transaction. The body is the whole configuration: an omitted or null `webhooks` disables delivery, omitted `channels` means `{access: "open"}`. The webhook URL is checked before anything is stored (422 `invalid_webhook_url`, the reason names the rule): WHATWG parsing first; `localhost`, `127.0.0.1`, `[::1]` (written so) allowed with http or https only where the operator allows loopback (development; refused by default); every other loopback, private, link-local, unique-local, unspecified, IPv4-embedding IPv6, `.internal` or `.localhost` host refused; other hosts need https; no userinfo. The URL is stored in its WHATWG-normalised form. The first activation with a webhook creates the environment's `whsec_` signing secret; later deploys keep it. Deliveries already recorded keep the URL they were created with. A deploy that takes access away (e.g. `channels.access` becomes `members`) closes the live sockets that lost it on every gateway with 4403. `limits` overrides the environment's rate limits and socket quotas (docs/limits.md); omitted limits take their defaults, and every gateway applies the new limits at once. The answer shows every limit in force.
         */
        put: operations["deployConfig"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{envId}/logs-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a token for the live logs socket
         * @description Secret key of that same environment (dashboard sessions are outside this API). A key of another environment gets 403 `forbidden`, whether or not `envId` exists, so the answer reveals nothing about other environments. The token is a JWT (audience `logs`) signed with the environment's signing key, valid `ttlSeconds` (60-3600, default 600), for GET /v1/environments/{envId}/logs?token=… on the realtime edge. It only opens the logs socket: user routes refuse it (401).
         */
        post: operations["mintLogsToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the user's notifications
         * @description User token. Notifications of the last 7 days, ascending by id (ids are time-ordered) within a page. Default: the newest page. `before`/`after` are exclusive notification-id bounds: `before` pages back, `after` alone pages forward from an id. `hasMore` says whether more exist beyond the page in its direction. `limit` default 50, max 500. 403 `banned` for a user banned environment-wide.
         */
        get: operations["listInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller of a user token
         * @description User token. Answers who the token belongs to and when it expires, so a client can check a token before opening sockets.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send notifications to users' inboxes
         * @description Secret key. Stores one notification per distinct user id (repeats are sent once), then delivers it live to every open /inbox socket of that user on every gateway. Users are not registered anywhere, so any well-formed user id is accepted: a user who has never connected finds it in GET /v1/inbox or when their inbox socket opens. Kept 7 days. 1-1000 user ids (400 otherwise); `payload` at most 64 KiB serialized (413 otherwise). Answered once stored.
         */
        post: operations["sendNotifications"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a user token
         * @description Secret key. The token is a JWT for the realtime edge. Refused (403 banned) for a user banned environment-wide.
         */
        post: operations["mintToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/anonymous": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint an anonymous user token
         * @description Secret key, or publishable key as `Authorization: Bearer pk_…` or `x-service-key: pk_…` (browser-safe). When the environment has allowed origins, a publishable-key request whose `Origin` is not among them is 403 `origin_not_allowed`; origins compare as lowercase `scheme://host[:port]` (default port dropped, no path), and `Origin: null` never matches. A request without `Origin` (a server or native app) is not judged by the list. The body may be empty. `userId` is `anon_` + a random id; the token carries `anon: true`.
         */
        post: operations["mintAnonymousToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook delivery ledger
         * @description Newest first. `status` filters; `limit` default 50, maximum 500; `cursor` is the `nextCursor` of the previous page (null on the last page). An unknown status, a limit out of range or a bad cursor: 400. `lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), `reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other connection failure). `lastStatusCode` carries the status of an answered attempt.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook delivery with its attempt log
         * @description `attemptLog` lists every attempt made (a delivery held back by a concurrency limit or an open circuit is not an attempt: its `nextAttemptAt` moves, `attempts` does not). `lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), `reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other connection failure). `lastStatusCode` carries the status of an answered attempt.
         */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a dropped delivery now
         * @description Re-queues a `dropped` delivery for one immediate attempt (status back to `pending`); if that attempt fails too, the delivery is `dropped` again. A delivery that is not `dropped`: 400 `invalid_request`. Takes no body.
         */
        post: operations["retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook signing secret
         * @description 404 `webhooks_not_configured` until a configuration with a webhook has been activated.
         */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook signing secret
         * @description Returns the new secret. For 24 h after a rotation every delivery carries both signatures, new first: `t=…,v1=<new>,v1=<old>`. Rotating again within those 24 h drops the oldest secret. 404 `webhooks_not_configured` when no secret exists yet. Takes no body.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Ban: {
            /** @description null for an environment-wide ban. */
            channelId: string | null;
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            reason: string | null;
            userId: string;
        };
        ChannelSettings: {
            /** @enum {string} */
            access: "open" | "members";
            channelId: string;
        };
        Config: {
            channels: {
                /** @enum {string} */
                access: "open" | "members";
            };
            limits: components["schemas"]["Limits"];
            webhooks: {
                url: string;
            } | null;
        };
        ConfigDeployment: {
            activatedAt: string | null;
            config: components["schemas"]["Config"];
            /** @description Null before the first deploy. */
            deploymentId: string | null;
        };
        /** @description A whole configuration: a deploy replaces the active one (omitted parts take their defaults: no webhook, open channels, default limits). */
        DeployConfigInput: {
            /** @description Omitted: `{access: "open"}`. */
            channels?: {
                /**
                 * @description Access of channels that have no access of their own.
                 * @enum {string}
                 */
                access: "open" | "members";
            };
            /** @description Omitted: every limit at its default (a deploy replaces earlier overrides). */
            limits?: components["schemas"]["LimitOverridesInput"];
            /** @description Null or omitted disables delivery. */
            webhooks?: {
                /** @description Receiving endpoint; validated before anything is stored. */
                url: string;
            } | null;
        };
        EphemeralMessage: {
            /** @constant */
            ephemeral: true;
            id: string;
        };
        /** @description Every non-2xx response; the header x-service-error repeats code. */
        Error: {
            code: string;
            reason?: string;
        };
        History: {
            /** @description More messages exist beyond this page in the paging direction. */
            hasMore: boolean;
            /** @description Ascending by seq. */
            messages: components["schemas"]["MessageEnvelope"][];
        };
        InboxPage: {
            hasMore: boolean;
            notifications: components["schemas"]["Notification"][];
        };
        /** @description Rate limits and socket quotas of the environment, enforced across the whole cluster. Rates are per fixed one-second window; a request over one is refused with 429 `rate_limited` (`retry-after` set), a socket publish over one closes the socket with 4429, a socket over a quota is closed with 4429. Omitted fields take their defaults. */
        LimitOverridesInput: {
            /** @description Anonymous tokens minted with publishable keys from one client IP, per second. Default 10. */
            anonymousMintsPerIpPerSecond?: number;
            /** @description Anonymous tokens minted with one publishable key, per second. Default 100. */
            anonymousMintsPerKeyPerSecond?: number;
            /** @description Messages published in the environment from every source, per second. Default 20000. */
            environmentMessagesPerSecond?: number;
            /** @description Requests made with one secret key, per second. Default 10000. */
            secretKeyRequestsPerSecond?: number;
            /** @description Sockets the environment holds open at a time. Default 50000. */
            socketsPerEnvironment?: number;
            /** @description Sockets one user holds open at a time (channel and inbox sockets). Default 100. */
            socketsPerUser?: number;
            /** @description Publishes by one user, HTTP and socket together, per second. Default 50. */
            userPublishesPerSecond?: number;
        };
        /** @description The limits in force: the deployed overrides over the defaults. */
        Limits: {
            /** @description Anonymous tokens minted with publishable keys from one client IP, per second. Default 10. */
            anonymousMintsPerIpPerSecond: number;
            /** @description Anonymous tokens minted with one publishable key, per second. Default 100. */
            anonymousMintsPerKeyPerSecond: number;
            /** @description Messages published in the environment from every source, per second. Default 20000. */
            environmentMessagesPerSecond: number;
            /** @description Requests made with one secret key, per second. Default 10000. */
            secretKeyRequestsPerSecond: number;
            /** @description Sockets the environment holds open at a time. Default 50000. */
            socketsPerEnvironment: number;
            /** @description Sockets one user holds open at a time (channel and inbox sockets). Default 100. */
            socketsPerUser: number;
            /** @description Publishes by one user, HTTP and socket together, per second. Default 50. */
            userPublishesPerSecond: number;
        };
        LogsToken: {
            /** Format: date-time */
            expiresAt: string;
            token: string;
        };
        /** @description Who the user token says the caller is. */
        Me: {
            anon: boolean;
            environmentId: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description The `claims` given when the token was minted. */
            ext?: {
                [key: string]: unknown;
            };
            userId: string;
        };
        Membership: {
            channelId: string;
            /** Format: date-time */
            createdAt: string;
            /** @enum {string} */
            role: "member" | "moderator";
            /** Format: date-time */
            updatedAt: string;
            userId: string;
        };
        /** @description A message as history, socket frames and webhooks show it. */
        MessageEnvelope: {
            content: {
                [key: string]: unknown;
            } | null;
            ephemeral: boolean;
            id: string;
            /** @enum {string} */
            kind: "user" | "server" | "system";
            mentions?: string[];
            retracted: boolean;
            sender: {
                anon: boolean;
                id: string;
            };
            seq: number;
            timestamp: number;
            to?: string[];
            type: string;
        };
        Notification: {
            /** @description Time-ordered; pass the last one seen as `since` to the inbox socket. */
            id: string;
            payload: unknown;
            /** @description Epoch milliseconds. */
            timestamp: number;
            type: string;
        };
        NotificationsCreated: {
            /** @description One notification id per distinct user id, in the order of first appearance. */
            ids: string[];
        };
        PublishedMessage: {
            id: string;
            seq: number;
            timestamp: number;
        };
        RetractedMessage: {
            id: string;
            /** @constant */
            retracted: true;
            seq: number;
        };
        Roster: {
            members: {
                online: boolean;
                /** @enum {string} */
                role: "member" | "moderator";
                userId: string;
            }[];
        };
        UserToken: {
            /** Format: date-time */
            expiresAt: string;
            token: string;
            userId: string;
        };
        WebhookDelivery: {
            attempts: number;
            channelId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            deliveredAt?: string;
            eventId: string;
            /** @enum {string} */
            eventType: "message.published" | "message.retracted";
            id: string;
            /** @description At most 1 KiB. */
            lastError?: string;
            lastStatusCode?: number;
            /**
             * Format: date-time
             * @description A pending delivery: when the next attempt is due.
             */
            nextAttemptAt?: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "dropped";
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        WebhookDeliveryDetail: {
            attemptLog: {
                /** Format: date-time */
                at: string;
                durationMs: number;
                error?: string;
                statusCode?: number;
            }[];
            attempts: number;
            channelId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            deliveredAt?: string;
            eventId: string;
            /** @enum {string} */
            eventType: "message.published" | "message.retracted";
            id: string;
            /** @description At most 1 KiB. */
            lastError?: string;
            lastStatusCode?: number;
            /**
             * Format: date-time
             * @description A pending delivery: when the next attempt is due.
             */
            nextAttemptAt?: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "dropped";
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Null on the last page. */
            nextCursor: string | null;
        };
        WebhookSecret: {
            /** @description `whsec_` prefix; HMAC-SHA256 key (the whole string, UTF-8). */
            secret: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getEnvironmentBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    banFromEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601, in the future; without it the ban lasts until removed.
                     */
                    expiresAt?: string;
                    /** @description Shown to the user as the `reason` of 403 `banned`. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unbanFromEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lifted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setChannelAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    access: "open" | "members";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelSettings"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannelBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    banFromChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601, in the future; without it the ban lasts until removed.
                     */
                    expiresAt?: string;
                    /** @description Shown to the user as the `reason` of 403 `banned`. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unbanFromChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lifted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description Default 50, max 500. */
                limit?: number;
                /** @description Exclusive upper seq bound. */
                before?: number;
                /** @description Exclusive lower seq bound; with `after` the page starts just after it. */
                after?: number;
            };
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["History"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRoster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Roster"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Defaults to `member`; a PUT replaces the role.
                     * @enum {string}
                     */
                    role?: "member" | "moderator";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Membership"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    publishMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A JSON object, at most 64 KiB serialized (larger: 413 payload_too_large). */
                    content: {
                        [key: string]: unknown;
                    };
                    /** @description Fan out to sockets only: no history, no webhook, no seq advance. */
                    ephemeral?: boolean;
                    /** @description The same key on the same channel within 24 h returns the first result and creates nothing. Ignored for ephemeral messages. */
                    idempotencyKey?: string;
                    /** @description Each mentioned user gets an inbox notification of type "mention". */
                    mentions?: string[];
                    /** @description Sender shown to clients; default "server". */
                    senderId?: string;
                    /** @description Only these users and the sender receive it on sockets and see it in history. */
                    to?: string[];
                    /** @description Application-defined message type, 1-64 chars; default "message". */
                    type?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishedMessage"];
                };
            };
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EphemeralMessage"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retractMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The message id (`msg_…`) its publish answered. */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Sent on the socket `retract` frame only. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetractedMessage"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigDeployment"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deployConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeployConfigInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigDeployment"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `invalid_webhook_url` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mintLogsToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment id (`env_…`) of the secret key. */
                envId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description 60-3600, default 600. */
                    ttlSeconds?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LogsToken"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInbox: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description Exclusive upper bound (a notification id). */
                before?: string;
                /** @description Exclusive lower bound (a notification id). */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxPage"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A JSON object, at most 64 KiB serialized (413 otherwise). */
                    payload: {
                        [key: string]: unknown;
                    };
                    /** @description Defaults to `notification`; `mention` is used by channel mentions. */
                    type?: string;
                    /** @description 1-1000 user ids. Users need not have connected before; repeated ids are sent once. */
                    userIds: string[];
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationsCreated"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mintToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Echoed to the user as the `ext` claim. */
                    claims?: {
                        [key: string]: unknown;
                    };
                    ttlSeconds?: number;
                    userId: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserToken"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mintAnonymousToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    ttlSeconds?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserToken"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: "pending" | "delivered" | "dropped";
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description `nextCursor` of the previous page (opaque). */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery id (`dlv_…`) from the ledger. */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery id (`dlv_…`) from the ledger. */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Error envelope; `code`: `invalid_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `origin_forbidden`, `origin_not_allowed`, `forbidden`, `banned` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `unavailable` */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
