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
         * @description Secret key. `open`: any user token of the environment may read and publish; `members`: only members. Overrides the channel namespace's `access` and the environment's deployed default for this channel; the channel is created if it does not exist yet. Switching to `members` closes the live sockets of non-members on every gateway with 4403.
         */
        put: operations["setChannelAccess"];
        post?: never;
        /**
         * Delete a channel
         * @description Secret key. Deletes the channel's messages, members and bans and resets its access to the environment's default; its open sockets close with 4403 `channel deleted` on every gateway (a `/v1/connect` subscription ends with `unsubscribed {code:"forbidden"}`). No webhook is sent for the deleted messages. A later publish re-creates the channel and its seq continues after the last seq it had (seqs are never reused, so a client resuming with `since` gets only new messages). While the deletion runs, a publish to the channel is refused with 503 `unavailable` (retry: after the deletion it starts the channel anew), so no message published during it survives it; its sockets close before its members, bans and access change. A channel with no messages, members or bans: 404. The deletion runs as a job on a dispatcher and survives its crash (another dispatcher resumes it); this request waits for it, up to 30 seconds. A deletion still running then is answered 202 with its job (also in `Location`): follow it with `GET /v1/erasures/{jobId}`, whose `deleted` holds the counts once `status` is `done`. A second request for the channel while its deletion runs waits on that same deletion.
         */
        delete: operations["deleteChannel"];
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
         * @description Secret key. Upsert: a second PUT replaces reason and expiry. `expiresAt` (ISO 8601) must be in the future; without it the ban lasts until deleted. The user's live sockets are closed with 4403 on every gateway. A banned user cannot subscribe, publish, read history or the roster of the channel. Realtime edge: a user token of a `moderator` of the channel (with the `publish` capability on it) may do the same for this channel; anyone else is 403 `forbidden`, and a moderator may not act on another moderator or themselves.
         */
        put: operations["banFromChannel"];
        post?: never;
        /**
         * Lift a channel ban
         * @description Secret key. Idempotent: 204 whether or not a ban existed. Realtime edge: a user token of a `moderator` of the channel (with the `publish` capability on it) may do the same for this channel; anyone else is 403 `forbidden`, and a moderator may not act on another moderator or themselves.
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
         * @description Persisted messages ascending by seq (oldest first) in every page, whichever way one pages; the client SDK's `history()` iterates newest first by default, reversing each page (its `direction` option). `limit` default 50, max 500; `before`/`after` are exclusive seq bounds. With `after` the page is the oldest messages after it; otherwise the newest (before `before`, if given). `hasMore` says more messages exist beyond the page in that direction (older without `after`, newer with it). Each `content` is the exact bytes it was published as (key order, spacing, escapes). Retracted messages appear tombstoned. A channel with no messages answers an empty page. Freshness (docs/read-replicas.md): a page reflects every change committed before the request, messages published and messages retracted or erased alike; a replica that has not replayed that far yet is waited for briefly, then the primary answers. Realtime edge: needs read access and the `history` capability, and the channel's namespace must not set `history: false` (403 `forbidden`); messages addressed with `to` are shown only to their addressees and sender.
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
         * @description User token, or secret key on the control plane. A user must be allowed to read the channel and hold the `presence` capability (403 `forbidden` or `banned` otherwise). `online` is live presence across all gateways: true while the user holds at least one socket on this channel (GET /v1/channels/{id}) on any gateway; a gateway that dies stops counting after PRESENCE_TTL_MS (default 15 s). Where the channel's namespace turns `presence` off, nobody is shown online. A `members` channel lists its members. An `open` channel lists its members plus every user currently online in it; those who are not members appear with role `member`. Sorted by userId. Banned users are left out. Paged: `limit` (default and maximum 1000) entries per page; `nextCursor` is null on the last page, otherwise the `cursor` of the next one. A limit out of range or a bad cursor: 400. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
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
         * @description Secret key. Idempotent: 204 whether or not the user was a member. The user's live sockets on this channel, on every gateway, are closed with 4403 (even in an `open` channel, where they may reconnect). Realtime edge: a user token of a `moderator` of the channel (with the `publish` capability on it) may do the same for this channel; anyone else is 403 `forbidden`, and a moderator may not act on another moderator or themselves.
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
         * @description Answered only after the message is committed (201), or after an ephemeral message was handed to the channel owner for fan-out (202; not persisted, no webhook, no history, no seq advance). The same `idempotencyKey` on the same channel within 24 h returns the first result and creates nothing. 503 `unavailable` when no channel owner answers within OWNER_TIMEOUT_MS: if the owner timed out the outcome is unknown, so retry with an `idempotencyKey`. A persisted publish with an `idempotencyKey` that has no answer after 1 s is sent to the owner again by the gateway (the key makes the repeat safe), so a request lost on the message bus costs about a second, not OWNER_TIMEOUT_MS. When the channel owner stops (its process dies) with the publish in flight, the gateway learns it when the owner's partitions move (about one rebalance interval): a publish with an `idempotencyKey` is sent to the next owner, any other is answered 503 at once, outcome unknown. Control plane (secret key): kind "server", sender `senderId` (default "server"), no access checks. Realtime edge (user token): kind "user", the sender is the token's user (`senderId` is refused with 400); needs publish access: not banned, the `publish` capability, access to the channel, a role other than `readonly`, and for an anonymous token a namespace that lets anonymous tokens publish (403 `forbidden` or `banned`). In a namespace with `persist: false` every message is ephemeral (202); a namespace's `maxContentBytes` lowers the content limit (413). The limits count the content's bytes as sent (its UTF-8 text, spacing included), and those bytes are kept exactly (key order, spacing, escapes) on socket frames, in history and in webhook bodies.
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
         * @description Replaces the content with a tombstone (history shows it with `retracted: true`, `content: null`), sends `{op:"retract", id, seq, reason?}` on sockets and a `message.retracted` webhook. Idempotent: a second retraction changes nothing and emits nothing. 404 for a message not in this channel. The body (`reason`) may be left out. Realtime edge: needs publish (capability, role, namespace); the sender may retract their own message and a `moderator` of the channel any message; anyone else is refused with 403 `forbidden`.
         */
        delete: operations["retractMessage"];
        options?: never;
        head?: never;
        /**
         * Edit a message
         * @description Replaces the message's content with a new version, through the channel's owner: the edit takes the channel's next seq (`eventSeq`), so it reaches subscribers in order with the channel's messages as `{op:"update", eventSeq, …envelope}` and is replayed on resume. History shows the latest version (`version`, `updatedAt`, `updatedBy`); `GET …/messages/{messageId}/versions` lists every version. A `message.updated` webhook event follows. The content follows a publish's rules (a JSON object, 64 KiB, the namespace's `maxContentBytes`, kept exactly as sent). 409 `conflict` for a retracted message; 404 for a message not in this channel (an ephemeral message is never stored). Not idempotent: two edits make two versions. Realtime edge: only the message's sender, with the `edit` capability, a role other than `readonly` and publish rights in the namespace; an edit counts as a publish against `userPublishesPerSecond`. Control plane: any message; `userId` is recorded as `updatedBy` (default null).
         */
        patch: operations["editMessage"];
        trace?: never;
    };
    "/v1/channels/{channelId}/messages/{messageId}/reactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * React to a message
         * @description Adds a reaction of `type` by the user to the message (one per user and type: adding it again changes nothing and still answers 200). The message's summary (`reactions`: type → count, first users) changes through the channel's owner, at most once per message every 250 ms however many reactions arrive: reactions that arrive within that interval are answered together when their summary commits, and subscribers get one `{op:"summary"}` frame, webhook endpoints one `message.reactions` event. A user may have at most 16 types on one message and a message at most 64 types (409 `conflict`); a retracted message takes none (409). Realtime edge: the token's user, with the `react` capability and read access to the channel (a `readonly` member may react); a message addressed to others (`to`) is 404; counted by `userReactionsPerSecond`. Control plane: `userId` names the user.
         */
        post: operations["addReaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/messages/{messageId}/reactions/{type}": {
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
         * Take back a reaction
         * @description Removes the user's reaction of `type` (200 with `reacted: false` also when there was none). Summarised like an addition. Control plane: `?userId=` names the user.
         */
        delete: operations["removeReaction"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/messages/{messageId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a message's versions
         * @description Every version of the message's content, oldest first; the last is the content now. A retracted message has none (its content and earlier versions were deleted with it). Realtime edge: the same read access as history (the `history` capability; a message addressed to others is 404).
         */
        get: operations["listMessageVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/occupancy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a channel's occupancy
         * @description Live counts of the channel over every gateway: `connections` (channel sockets and `/v1/connect` subscriptions) and `users` (distinct users among them). A change shows within about 2 s; a gateway that dies stops counting after PRESENCE_TTL_MS (default 15 s). Counts come from presence: where the channel's namespace turns `presence` off the request is refused (403 `forbidden`). A user token needs read access to the channel and the `presence` capability (403 `forbidden` or `banned` otherwise); each read counts against `userRosterReadsPerSecond`.
         */
        get: operations["getOccupancy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{channelId}/presence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Enter a channel's presence, or update the entry, for one of your connections
         * @description User token. `connectionId` names one of the caller's own open connections (the `connectionId` of its `connected` frame: an event stream of `GET /v1/events` or a `/v1/connect` socket) on any gateway; the entry belongs to its subscription of the channel, exactly as with the frames, and leaves when that subscription or connection ends. An unknown connection, or one of another user, is 404 `not_found` (a connection no gateway answers for within a couple of seconds counts as unknown). See docs/presence.md, "Presence data". Enters with `data`, or replaces the data of the entry already there (as `presence-enter`). Needs read access and the `presence` capability, presence on in the channel's namespace (403 `forbidden` otherwise), and the connection subscribed to the channel (400 `invalid_request` until its `subscribed`).
         */
        put: operations["putPresence"];
        post?: never;
        /**
         * Leave a channel's presence for one of your connections
         * @description User token. `connectionId` names one of the caller's own open connections (the `connectionId` of its `connected` frame: an event stream of `GET /v1/events` or a `/v1/connect` socket) on any gateway; the entry belongs to its subscription of the channel, exactly as with the frames, and leaves when that subscription or connection ends. An unknown connection, or one of another user, is 404 `not_found` (a connection no gateway answers for within a couple of seconds counts as unknown). See docs/presence.md, "Presence data". The entry goes (as `presence-leave`; idempotent: 204 when there was none). The subscription stays online.
         */
        delete: operations["deletePresence"];
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
         * @description Validates, stores a deployment and activates it, in one transaction. The body is the whole configuration: an omitted or null `webhooks` disables delivery, omitted `channels` means `{access: "open"}`. The webhook URL is checked before anything is stored (422 `invalid_webhook_url`, the reason names the rule): WHATWG parsing first; `localhost`, `127.0.0.1`, `[::1]` (written so) allowed with http or https only where the operator allows loopback (development; refused by default); every other loopback, private, link-local, unique-local, unspecified, IPv4-embedding IPv6, `.internal` or `.localhost` host refused; other hosts need https; no userinfo. The URL is stored in its WHATWG-normalised form. The first activation with a webhook creates the environment's `whsec_` signing secret; later deploys keep it. Deliveries already recorded keep the URL they were created with. A deploy that takes access away (e.g. `channels.access` becomes `members`) closes the live sockets that lost it on every gateway with 4403. `limits` overrides the environment's rate limits and socket quotas (docs/limits.md); omitted limits take their defaults, and every gateway applies the new limits at once. The answer shows every limit in force. `namespaces` give channels by id prefix their own access, anonymous rights, history, persistence, retention and content size (the longest matching prefix applies; docs/permissions.md); every gateway applies them at once, and sockets that lose read access are closed with 4403. A bad prefix or a prefix given twice is 400 `invalid_request`. To change one part and keep the rest, use `PATCH /v1/config`.
         */
        put: operations["deployConfig"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change part of the configuration
         * @description Merges the body into the active configuration as a JSON Merge Patch (RFC 7396) and deploys the result as a new deployment, exactly as `PUT /v1/config` would deploy it (same validation, same errors, same effects on live sockets and limits). Objects merge member by member (`channels`, `limits`, `webhooks`); `null` removes a setting, which then takes its default (`webhooks: null` disables delivery, `limits: {"socketsPerUser": null}` takes that one limit back to its default, `limits: null` all of them); an array (`namespaces`) is replaced whole; an omitted field is unchanged; `channels.access` can be changed but not removed. `{}` deploys the active configuration again. Before the first deploy the patch applies to the defaults. Concurrent changes of one environment's configuration (PATCH, PUT) take turns: each PATCH merges into the configuration the previous change activated, so none is lost. The body is `application/json`.
         */
        patch: operations["patchConfig"];
        trace?: never;
    };
    "/v1/dashboard/email-verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a verification code to an e-mail address
         * @description The code proves the address: accepting an invitation makes a new account only with it (`code` of POST /v1/dashboard/invitations/{token}/accept). The answer is the same 202, and the work before it the same, whether or not an account uses the address: only the mailbox learns. Codes are 8 digits, valid DASHBOARD_EMAIL_CODE_TTL (15 minutes by default), used once, and die after 5 wrong guesses. Asking is limited per e-mail address (DASHBOARD_EMAIL_CODES_PER_EMAIL, 5 an hour, both kinds together) and per client address (DASHBOARD_EMAIL_CODES_PER_IP, 20 an hour): over either, 429 `rate_limited` with `retry-after`. The mail goes through DASHBOARD_MAIL_SENDER (`log`: the gateway's log). A browser's `Origin` must be the dashboard's own (403 otherwise).
         */
        post: operations["dashboardRequestEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One environment
         * @description Any member of its organization. An environment of another organization is 404 `not_found`, like an unknown one.
         */
        get: operations["dashboardGetEnvironment"];
        put?: never;
        post?: never;
        /**
         * Delete an environment and everything in it
         * @description The body `{confirm}` must be the environment's exact name (400 otherwise). Deletes its keys, signing keys, channels, messages, members, bans, notifications, configuration and webhook ledger; its keys and user tokens stop working on every gateway at once. Not undoable. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardDeleteEnvironment"];
        options?: never;
        head?: never;
        /**
         * Rename an environment
         * @description Its id, keys and everything in it stay. A name taken in the project: 400. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        patch: operations["dashboardRenameEnvironment"];
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/bans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live environment-wide bans
         * @description Unexpired bans by user id; `limit` default 50, maximum 500; `after` is the previous page's `nextAfter`. Any member. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardListEnvironmentBans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/bans/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Ban a user (environment-wide)
         * @description An upsert: a second PUT replaces reason and expiry. `expiresAt` must be in the future; without it the ban lasts until lifted. The user's live sockets concerned are closed with 4403 on every gateway. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        put: operations["dashboardPutEnvironmentBan"];
        post?: never;
        /**
         * Lift a environment-wide ban
         * @description 204 whether or not a ban existed. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardRemoveEnvironmentBan"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The channels of an environment
         * @description The environment's channels as stored by their owners, by channel id, each with its message count (retracted ones included) and last activity (the newest persisted message). `limit` default 50, maximum 500; `cursor` is the previous page's `nextCursor`. Any member. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardListChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/bans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live channel bans
         * @description Unexpired bans by user id; `limit` default 50, maximum 500; `after` is the previous page's `nextAfter`. Any member. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardListChannelBans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/bans/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Ban a user (channel)
         * @description An upsert: a second PUT replaces reason and expiry. `expiresAt` must be in the future; without it the ban lasts until lifted. The user's live sockets concerned are closed with 4403 on every gateway. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        put: operations["dashboardPutChannelBan"];
        post?: never;
        /**
         * Lift a channel ban
         * @description 204 whether or not a ban existed. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardRemoveChannelBan"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The members of a channel
         * @description By user id; `limit` default 50, maximum 500; `after` is the previous page's `nextAfter`. Any member. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardListChannelMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add a channel member or change their role
         * @description As PUT /v1/channels/{channelId}/members/{userId} with the secret key: an idempotent upsert, the role defaults to `member`; the channel need not exist yet. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        put: operations["dashboardPutChannelMember"];
        post?: never;
        /**
         * Remove a channel member
         * @description 204 whether or not the user was a member. The user's live sockets concerned are closed with 4403 on every gateway. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardRemoveChannelMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a channel's messages
         * @description Persisted messages, newest first, tombstones of retracted ones included, and messages addressed with `to` (the control plane sees them all). Filters: `sender` (sender id), `type`, `since` (inclusive) and `until` (exclusive) on the publish time. `limit` default 50, maximum 500; `before` is the previous page's `nextBefore`. A channel without messages (or unknown) answers an empty page. Any member. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardListMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One message
         * @description With its addressees, mentions and retraction time. 404 for a message not in this channel. Any member. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardGetMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/channels/{channelId}/messages/{messageId}/retract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retract a message
         * @description The same retraction as DELETE /v1/channels/{channelId}/messages/{messageId} with the secret key: the content becomes a tombstone, sockets get `{op:"retract", id, seq, reason}` and a `message.retracted` webhook is sent. The reason is required and kept in the audit log. Retracting a retracted message changes nothing and answers it. 404 for a message not in this channel; 503 `unavailable` when the channel owner does not answer in time (retrying is safe). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardRetractMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API keys of an environment
         * @description Revoked keys too, newest first, with their prefix, kind, creation, last use (recorded at most once a minute per gateway) and revocation; never the key itself. Any member.
         */
        get: operations["dashboardListKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The answer is the only time the key is shown: only its hash is stored. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description Every gateway refuses the key at once (401 on the public routes); revoking a revoked key answers it unchanged. Takes no body. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardRevokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/origins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The allowed origins of an environment
         * @description Browsers from these origins may use the environment's publishable keys; with none, any origin may. Any member.
         */
        get: operations["dashboardListOrigins"];
        put?: never;
        /**
         * Allow an origin
         * @description Stored normalised as `scheme://host[:port]` (lowercase, default port dropped); a path, query, user name or a scheme other than http(s): 400. Adding one already there answers it (200 instead of 201). Every gateway applies the change at once. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardAddOrigin"];
        /**
         * Remove an allowed origin
         * @description `?origin=` names it (compared normalised). 204 whether or not it was there. Every gateway applies the change at once. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardRemoveOrigin"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly quotas and usage of an environment
         * @description The environment's monthly quotas (`limits.monthlyMessages`, `limits.monthlyConnectionMinutes`) and what it used of them in this calendar month (UTC), counted whether or not a limit is set. Messages are exact; connection-minutes lag by at most QUOTA_FLUSH_MS (docs/quotas.md). Any member.
         */
        get: operations["dashboardGetQuota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage by minute, hour, day or month
         * @description As GET /v1/stats. The environment's usage, one entry per interval of `unit` (UTC; `month` is a calendar month) whose start lies between `start` and `end`, at most `limit` (default 100, maximum 1000), newest first unless `direction` is `forwards`. Defaults: `unit` `minute`, `end` now, `start` `end` less `limit` units. An interval without usage is left out. The current hour, day and month are computed from the finer intervals at read time, so the newest entry holds every minute flushed so far (a process flushes its counts every few seconds). Minutes are kept 48 hours, hours 90 days, days and months 2 years (docs/stats.md). A bad `unit`, `direction`, `limit` or time, or `start` after `end`: 400 `invalid_request`. Any member.
         */
        get: operations["dashboardGetStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook settings of an environment
         * @description The active URL (null: delivery is off) and whether a signing secret exists. Any member. A viewer reads each webhook URL redacted (userinfo and query values masked, e.g. `?token=***`; the fragment dropped); admins and owners read it whole.
         */
        get: operations["dashboardGetWebhook"];
        /**
         * Deploy the webhook URL
         * @description Deploys and activates a configuration with this URL (null turns delivery off), keeping the active channel access and limits: the same deployment as PUT /v1/config, so every gateway applies it at once. The URL is checked first by the same rules; a refused URL is 400 `invalid_request` whose reason names the rule, and nothing is deployed. The first deploy with a URL creates the signing secret. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        put: operations["dashboardDeployWebhook"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook endpoints of an environment
         * @description Oldest first; the default endpoint (the configuration's URL) is not listed. As GET /v1/webhook-endpoints with the secret key, scoped to the environment. Any member. A viewer reads each webhook URL redacted (userinfo and query values masked, e.g. `?token=***`; the fragment dropped); admins and owners read it whole.
         */
        get: operations["dashboardListWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Answers 201 with the endpoint and its signing secret. A URL the policy refuses is 422 `invalid_webhook_url` with the rule in its reason. As POST /v1/webhook-endpoints with the secret key, scoped to the environment. Audited (`webhook_endpoint.created`). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardCreateWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook endpoint
         * @description As GET /v1/webhook-endpoints/{endpointId} with the secret key, scoped to the environment. Any member. A viewer reads each webhook URL redacted (userinfo and query values masked, e.g. `?token=***`; the fragment dropped); admins and owners read it whole.
         */
        get: operations["dashboardGetWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description With its ledger. Answers 204. As DELETE /v1/webhook-endpoints/{endpointId} with the secret key, scoped to the environment. Audited (`webhook_endpoint.deleted`). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardDeleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change, disable or enable a webhook endpoint
         * @description Changes the fields given; `null` clears a filter or the rate limit; `disabled` turns it off and on. As PATCH /v1/webhook-endpoints/{endpointId} with the secret key, scoped to the environment. Audited (`webhook_endpoint.updated`). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        patch: operations["dashboardUpdateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-endpoints/{endpointId}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-send an endpoint's dropped deliveries
         * @description Answers 202 `{taskId}`; follow it at GET …/webhook-tasks/{taskId}. As POST /v1/webhook-endpoints/{endpointId}/recover with the secret key, scoped to the environment. Audited (`webhook_endpoint.recovery_started`). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardRecoverWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-endpoints/{endpointId}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reveal an endpoint's signing secret
         * @description Each reveal is recorded in the audit log (`webhook_endpoint.secret_revealed`, without the secret). Admins and owners (403 for viewers).
         */
        get: operations["dashboardRevealWebhookEndpointSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-endpoints/{endpointId}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description Answers the new secret; for 24 h deliveries to the endpoint carry both signatures. Takes no body. Audited (`webhook_endpoint.secret_rotated`). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardRotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an endpoint a test event
         * @description Answers 202 with the delivery in the ledger; a disabled endpoint is 400. As POST /v1/webhook-endpoints/{endpointId}/test with the secret key, scoped to the environment. Audited (`webhook_endpoint.tested`). Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardTestWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook event types
         * @description The catalogue an endpoint's `eventTypes` filter names. As GET /v1/webhook-event-types with the secret key, scoped to the environment. Any member.
         */
        get: operations["dashboardListWebhookEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook-tasks/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook task's progress
         * @description `running`, then `completed` (or `failed`, with a reason). As GET /v1/webhook-tasks/{taskId} with the secret key, scoped to the environment. Any member.
         */
        get: operations["dashboardGetWebhookTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook delivery ledger
         * @description Newest first. `status` and `endpointId` (an endpoint's id, or `default` for the configuration's URL) filter; `limit` default 50, maximum 500; `cursor` is the previous page's `nextCursor`. Any member. A viewer reads each webhook URL redacted (userinfo and query values masked, e.g. `?token=***`; the fragment dropped); admins and owners read it whole. `lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), `reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other connection failure). `lastStatusCode` carries the status of an answered attempt. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardListDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook delivery with its attempt log
         * @description 404 for a delivery of another environment. Any member. A viewer reads each webhook URL redacted (userinfo and query values masked, e.g. `?token=***`; the fragment dropped); admins and owners read it whole. `lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), `reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other connection failure). `lastStatusCode` carries the status of an answered attempt. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
         */
        get: operations["dashboardGetDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook/deliveries/{deliveryId}/retry": {
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
         * @description As POST /v1/webhooks/deliveries/{deliveryId}/retry: one immediate attempt (status back to `pending`). A delivery that is not `dropped`: 400 `invalid_request` (a `cancelled` one, whose message was retracted or deleted, is never sent again). Takes no body. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardRetryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reveal the webhook signing secret
         * @description Each reveal is recorded in the audit log (`webhook.secret_revealed`, without the secret). 404 `webhooks_not_configured` before the first deploy with a URL. Admins and owners (403 for viewers).
         */
        get: operations["dashboardRevealWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/environments/{envId}/webhook/secret/rotate": {
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
         * @description As POST /v1/webhooks/secret/rotate: answers the new secret; for 24 h deliveries carry both signatures. 404 `webhooks_not_configured` when no secret exists yet. Takes no body. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardRotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/invitations/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an invitation offers
         * @description No session needed: the token is the credential. Unknown, used, revoked or expired: 404 `not_found`.
         */
        get: operations["dashboardPreviewInvitation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/invitations/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation (and sign in)
         * @description For the invitation's e-mail (or, when it names none, `email`). Without `code`, only an existing account joins, once its `password` is right (throttled like sign-in); a wrong password and an address without an account are the same 401 `unauthorized`, and the invitation stays usable. A new account needs `code`, a verification code mailed to the address (POST /v1/dashboard/email-verifications): with it, a new account is made with `password` (at least 10 characters), or an existing one joins with its password; a wrong, used or expired code is 401. So no invitation makes an account for an address nobody proved to own. The invitation then is used up: a second acceptance is 404. An existing member keeps their role. Signs in: sets the session cookie and answers the session. A browser's `Origin` must be the dashboard's own.
         */
        post: operations["dashboardAcceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organizations of the signed-in user, with their role
         * @description Every organization the signed-in user is a member of, with the role they hold in it.
         */
        get: operations["dashboardListOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One organization
         * @description Any member. An organization the user is not a member of is 404 `not_found`, like an unknown one.
         */
        get: operations["dashboardGetOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's audit log
         * @description Every change, newest first: who (a user, or `cli` for the operator's admin CLI), what (`action`, `target`, `details`), when. `limit` default 50, maximum 200; `cursor` is the `nextCursor` of the previous page. Any member.
         */
        get: operations["dashboardListAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's invitations (newest 100), with their state
         * @description Any member. Tokens are never shown again.
         */
        get: operations["dashboardListInvitations"];
        put?: never;
        /**
         * Invite someone to the organization
         * @description Owners only. Answers a single-use link, valid for DASHBOARD_INVITATION_TTL (7 days by default); the token is shown only here (stored hashed). No mail is sent: pass the link on (outside production it is also written to the gateway's log). With `email`, only that address may accept. Whoever accepts for an address without an account proves it with a code mailed to it. Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardCreateInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/invitations/{invitationId}": {
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
         * Revoke a pending invitation
         * @description Owners only. An accepted or expired invitation: 400. Revoking twice answers the revoked one. Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardRevokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The members of an organization and their roles
         * @description Any member; oldest member first.
         */
        get: operations["dashboardListMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a member's role
         * @description Owners only (403 otherwise). The last owner can not be demoted (400 `invalid_request`): an organization always keeps one. A user who is not a member: 404. A move to a lower role revokes the logs tokens the member minted for the organization's environments (their logs sockets close with 4401 on every gateway). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        put: operations["dashboardSetMemberRole"];
        post?: never;
        /**
         * Remove a member (or leave)
         * @description Owners remove anyone; any member may remove themselves. Never the last owner (400 `invalid_request`). The removed user keeps their account and loses access to the organization at once; the logs tokens they minted are revoked and their logs sockets close with 4401 on every gateway. Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardRemoveMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The projects of an organization
         * @description Any member; by name.
         */
        get: operations["dashboardListProjects"];
        put?: never;
        /**
         * Create a project
         * @description A name taken in the organization: 400 `invalid_request`. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardCreateProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/organizations/{orgId}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The roles of an organization and what each may do
         * @description `read`: see everything; `manage`: projects, environments, keys, origins (and the environments' other settings); `administer`: invitations, roles and members. Any member.
         */
        get: operations["dashboardListRoles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/password-resets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a password reset code
         * @description When an account uses the address, the mail holds a code for POST /v1/dashboard/password-resets/confirm; otherwise it says that no account uses it. The answer is the same 202, and the work before it the same, whether or not an account uses the address: only the mailbox learns. Codes are 8 digits, valid DASHBOARD_EMAIL_CODE_TTL (15 minutes by default), used once, and die after 5 wrong guesses. Asking is limited per e-mail address (DASHBOARD_EMAIL_CODES_PER_EMAIL, 5 an hour, both kinds together) and per client address (DASHBOARD_EMAIL_CODES_PER_IP, 20 an hour): over either, 429 `rate_limited` with `retry-after`. The mail goes through DASHBOARD_MAIL_SENDER (`log`: the gateway's log). A browser's `Origin` must be the dashboard's own (403 otherwise).
         */
        post: operations["dashboardRequestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/password-resets/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset code
         * @description Sets the account's password and signs every session of the account out (on every gateway; logs tokens it minted stop working); then sign in with the new password. A wrong, used or expired code, or an address without an account: 401 `unauthorized`, the same answer (a wrong guess counts against the address's live codes). A new password of fewer than 10 characters: 400. A browser's `Origin` must be the dashboard's own.
         */
        post: operations["dashboardConfirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/projects/{projectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One project
         * @description Any member of its organization. A project of another organization is 404 `not_found`, like an unknown one.
         */
        get: operations["dashboardGetProject"];
        put?: never;
        post?: never;
        /**
         * Delete an empty project
         * @description Only a project without environments (400 `invalid_request` otherwise): environments are deleted one by one, each confirmed by its name. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardDeleteProject"];
        options?: never;
        head?: never;
        /**
         * Rename a project
         * @description A name taken in the organization: 400 `invalid_request`. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        patch: operations["dashboardRenameProject"];
        trace?: never;
    };
    "/v1/dashboard/projects/{projectId}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The environments of a project
         * @description Any member; by name.
         */
        get: operations["dashboardListEnvironments"];
        put?: never;
        /**
         * Create an environment
         * @description Made with its token signing key and no API keys: create those next. A name taken in the project: 400. Admins and owners (403 for viewers). Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        post: operations["dashboardCreateEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user, their organizations and roles
         * @description Also answers the session's CSRF token (send it as `x-csrf-token` on every change) and when the session ends: `idleExpiresAt` (each request moves it on) and `expiresAt` (fixed at sign-in). 401 without a live session.
         */
        get: operations["dashboardGetSession"];
        put?: never;
        /**
         * Sign in to the dashboard
         * @description Checks the e-mail and password and sets the session cookie `dashboard_session` (HttpOnly, SameSite=Lax, Path=/, Secure over https). A wrong password and an unknown e-mail are the same 401 `unauthorized` and take the same time (an unknown e-mail is not hashed: it waits as long as a recent check did). Failed sign-ins are limited per e-mail address from one client address and per client address, an IPv6 client counted by its /64 (DASHBOARD_LOGIN_FAILURES_PER_ACCOUNT, _PER_IP within DASHBOARD_LOGIN_WINDOW; 5 and 20 in 15 minutes by default): over either, 429 `rate_limited` with `retry-after`, without checking the password. Across addresses an e-mail address is slowed down, never locked: from 5 failures on, an address with failures of its own waits a delay that doubles with each failure (1 s up to DASHBOARD_LOGIN_DELAY_MAX) after the latest one (429 with `retry-after` until then); an address with no recent failures is never slowed. 503 `unavailable` with `retry-after` when this gateway has too many password checks waiting; checks from addresses with no recent failures go first, and a 503 counts as a failure for an address that has failures. An `email` with control characters is 400. A browser's `Origin` must be the dashboard's own (403 otherwise). A session the cookie already named ends. The answer carries the CSRF token for later changes.
         */
        post: operations["dashboardSignIn"];
        /**
         * Sign out
         * @description Ends the session and clears the cookie; the logs tokens the session minted are revoked and their logs sockets close with 4401 on every gateway before the answer. Without a live session there is nothing to end: 204 as well. Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` of the dashboard itself; otherwise 403 `forbidden`.
         */
        delete: operations["dashboardSignOut"];
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
         * @description Secret key of that same environment: a key of another environment gets 403 `forbidden`, whether or not `envId` exists, so the answer reveals nothing about other environments. Or, without an Authorization header, a dashboard session: any member of the environment's organization (another organization's environment: 404), with the `x-csrf-token` header and, from a browser, the dashboard's own `Origin` (else 403). The token is a JWT (audience `logs`) signed with the environment's signing key, valid `ttlSeconds` (60-3600, default 600), for GET /v1/environments/{envId}/logs?token=… on the realtime edge. It only opens the logs socket: user routes refuse it (401). A member's tokens are revoked when the member is removed or moved to a lower role. A token minted with a dashboard session expires with the session at the latest (`expiresAt` says when) and is revoked when the session ends (sign-out, a new sign-in in the same browser, idle expiry, every session of the user ended): its logs sockets close with 4401 `token revoked`. Logs sockets count in the environment's socket quota.
         */
        post: operations["mintLogsToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/erasures/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An erasure job's progress
         * @description Secret key. A job of another environment, or an unknown one: 404. A finished job stays readable for 30 days.
         */
        get: operations["getErasureJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream channels as server-sent events
         * @description User token (`Authorization: Bearer` or `?token=`). The frames of `GET /v1/connect` for up to 20 channels as server-sent events, for clients whose WebSockets are blocked: each channel's replay after its position (or its `~rewind:`), `subscribed`, then live frames; with `inbox`, the user's notifications too (then `inbox-subscribed`), and the channels may be none. Every event's `id` holds every channel's position (comma-separated `<h>~<seq>`, `<h>` the first 8 characters of base64url(sha256(channelId))), so a reconnect with `Last-Event-ID` (or `lastEventId=`) resumes each channel with no gap and no duplicate. Refusals before the stream: 400 bad query, 401 token, 403 `banned` from the environment, 429 socket quota or opens per second. See docs/protocol.md, "Server-sent events".
         */
        get: operations["openEvents"];
        put?: never;
        post?: never;
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
         * @description User token. Notifications of the last 7 days, ascending by id (ids are time-ordered) within a page. Default: the newest page. `before`/`after` are exclusive notification-id bounds: `before` pages back, `after` alone pages forward from an id. `hasMore` says whether more exist beyond the page in its direction. `limit` default 50, max 500. 403 `banned` for a user banned environment-wide. Rate-limited per user by `userInboxReadsPerSecond` (one unit per 50 notifications a page may return, so `limit=500` costs 10; inbox replays of sockets and event streams count too) and `environmentEdgeReadsPerSecond`: 429 `rate_limited` with `retry-after`.
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
    "/v1/messages/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish several messages
         * @description Publishes 1 to 100 messages, for one or many channels, in one request (body at most 1 MiB: 413 `payload_too_large` above it). Answers 200 with one result per message, in request order: `{id, seq, timestamp}` for a message committed before the answer, `{id, ephemeral: true}` for an ephemeral one, or `{error: {code, reason}}` for a message that was not published (the others are unaffected). Each message passes the checks of the single publish route and counts once against the per-message rate limits: messages past a limit get `rate_limited` and those before it are published. Messages for the same channel get seqs in request order. A malformed body (any message) is 400 for the whole request, nothing published. Control plane: kind "server", sender `senderId` per message (default "server"), no access checks.
         */
        post: operations["publishBatch"];
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
         * @description Secret key. Stores one notification per distinct user id (repeats are sent once), then delivers it live to every open /inbox socket of that user on every gateway. Users are not registered anywhere, so any well-formed user id is accepted: a user who has never connected finds it in GET /v1/inbox or when their inbox socket opens. Kept 7 days. 1-1000 user ids (400 otherwise); `payload` at most 64 KiB serialized (413 otherwise). Answered once stored. Each user is sent at most `notificationsPerUserPerMinute` notifications per minute (mentions included; docs/limits.md): users over it get nothing and are listed in `dropped`; when every user is over it, nothing is stored and the answer is 429 `rate_limited` with `retry-after` (seconds until the minute ends).
         */
        post: operations["sendNotifications"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly quotas and usage
         * @description The environment's monthly quotas (`limits.monthlyMessages`, `limits.monthlyConnectionMinutes`) and what it used of them in this calendar month (UTC), counted whether or not a limit is set. Messages are exact; connection-minutes lag by at most QUOTA_FLUSH_MS (docs/quotas.md).
         */
        get: operations["getQuota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/signing-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List token signing keys
         * @description Secret key. The keys that sign and verify the environment's minted user tokens, newest first (keys retired over a week ago are left out). Secrets are never shown.
         */
        get: operations["listSigningKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/signing-keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the token signing key
         * @description Secret key. A new key signs every token minted from now on. Tokens signed by the previous key keep working for `graceSeconds` (default 86400, at most 604800), then every gateway refuses them with 401; sockets opened with them keep running until their token expires. With `graceSeconds: 0` they are refused at once and their open sockets close with 4401 `token revoked` on every gateway. The body may be left out.
         */
        post: operations["rotateSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage by minute, hour, day or month
         * @description The environment's usage, one entry per interval of `unit` (UTC; `month` is a calendar month) whose start lies between `start` and `end`, at most `limit` (default 100, maximum 1000), newest first unless `direction` is `forwards`. Defaults: `unit` `minute`, `end` now, `start` `end` less `limit` units. An interval without usage is left out. The current hour, day and month are computed from the finer intervals at read time, so the newest entry holds every minute flushed so far (a process flushes its counts every few seconds). Minutes are kept 48 hours, hours 90 days, days and months 2 years (docs/stats.md). A bad `unit`, `direction`, `limit` or time, or `start` after `end`: 400 `invalid_request`.
         */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token-jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the JWKS URL for tenant-signed tokens
         * @description Secret key. The gateways fetch the key set under the webhook URL policy (https, public addresses only; checked again at every fetch against what the host resolves to), keep it for 5 minutes, and fetch it again when a token names an unknown `kid` (at most every 30 s). Keys must carry `kid` and `alg`; others are skipped. A registered key with the same kid wins. A URL the policy refuses: 400. A tenant-signed token has header `alg` RS256, ES256 or EdDSA and `kid`, and claims `iss` (the environment id), `aud` "realtime", `sub` (a user id), `iat`, `exp` (at most 24 h after `iat`), `jti`; optionally `anon`, `ext`, `iat_ms`. See docs/tokens.md.
         */
        put: operations["putTokenJwks"];
        post?: never;
        /**
         * Remove the JWKS URL
         * @description Secret key. Idempotent. Tokens signed with keys from it are refused on every gateway at once (401); sockets already open with them run until their token expires (revoke the tokens to close them).
         */
        delete: operations["deleteTokenJwks"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environment's token keys
         * @description Secret key. The registered public keys and the JWKS URL (null when none). A tenant-signed token has header `alg` RS256, ES256 or EdDSA and `kid`, and claims `iss` (the environment id), `aud` "realtime", `sub` (a user id), `iat`, `exp` (at most 24 h after `iat`), `jti`; optionally `anon`, `ext`, `iat_ms`. See docs/tokens.md.
         */
        get: operations["listTokenKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token-keys/{kid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Register a public key for tenant-signed tokens
         * @description Secret key. Upsert. Key ids are per environment: another environment using the same kid neither blocks this one nor is affected by it (a token is checked only against the keys of the environment in its `iss`). Tokens signed with it are accepted on every gateway at once. A tenant-signed token has header `alg` RS256, ES256 or EdDSA and `kid`, and claims `iss` (the environment id), `aud` "realtime", `sub` (a user id), `iat`, `exp` (at most 24 h after `iat`), `jti`; optionally `anon`, `ext`, `iat_ms`. See docs/tokens.md.
         */
        put: operations["putTokenKey"];
        post?: never;
        /**
         * Remove a registered token key
         * @description Secret key. Tokens signed with it are refused on every gateway at once (401) and their open sockets close with 4401. Unknown kid: 404.
         */
        delete: operations["deleteTokenKey"];
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
         * @description Secret key. The token is a JWT for the realtime edge. Refused (403 banned) for a user banned environment-wide. `capabilities` narrows what the token may do, by channel pattern (docs/permissions.md); refused with 400 `invalid_request` when over 64 patterns or 2 KiB serialized, or with an unknown operation or a bad pattern.
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
         * @description Served on both hosts, with the same credentials and answers: the realtime edge, where a browser already talks, and the control plane. Secret key, or publishable key as `Authorization: Bearer pk_…` or `x-service-key: pk_…` (browser-safe; CORS allows any origin on both hosts, the allowed origins decide). A user token is 403 `forbidden`. When the environment has allowed origins, a publishable-key request whose `Origin` is not among them is 403 `origin_not_allowed`; origins compare as lowercase `scheme://host[:port]` (default port dropped, no path), and `Origin: null` never matches. A request without `Origin` (a server or native app) is not judged by the list. The body may be empty. `userId` is `anon_` + a random id; the token carries `anon: true`. `capabilities` as on POST /v1/tokens; channel namespaces may also refuse anonymous tokens (docs/permissions.md).
         */
        post: operations["mintAnonymousToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke one user token
         * @description Secret key. The token with this `jti` (minted here or signed by the environment's own keys) is refused from now on on every gateway: HTTP with 401 `unauthorized`, and its open sockets (channel socket, inbox, `/v1/connect`) close with 4401 `token revoked`. Idempotent. The revocation is kept until no token can still be unexpired (the longest token lifetime, 24 h, and a minute), then forgotten.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{userId}/messages": {
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
         * Retract every message of a user
         * @description Secret key. Starts a job that retracts every message the user published in the environment (every channel), in batches, as `DELETE /v1/channels/{channelId}/messages/{messageId}` would: sockets get `retract` frames (reason `erased`) and each message gets a `message.retracted` webhook. Answers 202 with the job at once; follow it with `GET /v1/erasures/{jobId}` (also in `Location`). The job runs on a dispatcher and survives its crash: another dispatcher resumes it where it stopped. Messages the user publishes after the job has passed their channel are not retracted: revoke the user's tokens first (`DELETE /v1/users/{userId}/tokens`).
         */
        delete: operations["eraseUserMessages"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{userId}/tokens": {
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
         * Revoke every token of a user
         * @description Secret key. Every token of the user issued before now is refused on every gateway (401; open sockets close with 4401). Tokens minted afterwards work, even within the same second: minted tokens carry their issue time in milliseconds (`iat_ms`). A tenant-signed token without `iat_ms` is judged by `iat` (seconds), so one issued in the same second as the revocation is refused too.
         */
        delete: operations["revokeUserTokens"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook endpoints
         * @description Oldest first; `cursor` is the `nextCursor` of the previous page. The default endpoint is not listed.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Answers 201 with the endpoint and its signing secret. Every event its filters take (`eventTypes`, `channels`) gets a delivery of its own, signed with its secret, with its own attempts and ledger rows. The URL is checked as the configuration's webhook URL is (422 `invalid_webhook_url`). At most 50 per environment (400 past it).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook endpoint
         * @description `failingSince` shows a streak of failed attempts; `disabledReason` why it is disabled. The secret key reads the URL whole.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description With its ledger: its deliveries and their attempts go too. Answers 204.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes the fields given; `null` clears a filter or the rate limit. A new `url` takes effect for every later attempt, retries of earlier deliveries included. `disabled: true` stops new deliveries and every send to it (`disabledReason: "manual"`): its pending deliveries wait without attempts; `disabled: false` enables it again, also after it was disabled for failing, and its waiting deliveries are due at once.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-send the endpoint's dropped deliveries
         * @description Answers 202 `{taskId}`: a dispatcher task queues again every `dropped` delivery of this endpoint created in [`since`, `until`) for an immediate attempt, to the endpoint's current URL. A `cancelled` delivery (its message was retracted or erased, or deleted with its channel) is not `dropped` and never sent again: a recovery sends the `message.retracted` event of such a message, never its content. Follow it at GET /v1/webhook-tasks/{taskId}.
         */
        post: operations["recoverWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The endpoint's signing secret
         * @description Verify deliveries with `service-signature` or with the Standard Webhooks headers (docs/webhooks.md). Recorded in the organization's audit log with the key as the actor (`{kind: "key", id: "key_…"}`), never the secret.
         */
        get: operations["getWebhookEndpointSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the endpoint's signing secret
         * @description Returns the new secret. For 24 h every delivery to the endpoint carries both signatures, new first, in both schemes. Recorded in the organization's audit log with the key as the actor (`{kind: "key", id: "key_…"}`), never the secret.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the endpoint a test event
         * @description Answers 202: a `webhook.test` event (or the catalogue's example of `eventType`) is sent to this endpoint only, through the normal path: a delivery in its ledger, signed, retried. A disabled endpoint: 400.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook event types
         * @description Each type's name, what it reports, the JSON Schema of its `data` and an example.
         */
        get: operations["listWebhookEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-tasks/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook task's progress
         * @description `running` until every matching delivery is queued again, then `completed` (or `failed`, with a reason).
         */
        get: operations["getWebhookTask"];
        put?: never;
        post?: never;
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
         * @description Newest first. `status` and `endpointId` (an endpoint's id, or `default` for the configuration's URL) filter; `limit` default 50, maximum 500; `cursor` is the `nextCursor` of the previous page (null on the last page). An unknown status, a limit out of range or a bad cursor: 400. A `message.published` delivery whose message was retracted (by its sender, a moderator or a user's erasure) or deleted with its channel before it was delivered is `cancelled` (`lastError` `message_retracted`): its stored body was redacted in the transaction that retracted or deleted the message, whatever its status, and it is never sent again. `url` is where the delivery was first addressed; each attempt goes to its endpoint's URL as it is then, and a disabled endpoint gets none until it is enabled. `lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), `reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other connection failure). `lastStatusCode` carries the status of an answered attempt. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
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
         * @description `attemptLog` lists every attempt made (a delivery held back by a concurrency limit or an open circuit is not an attempt: its `nextAttemptAt` moves, `attempts` does not). `lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), `reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other connection failure). `lastStatusCode` carries the status of an answered attempt. Reflects every change committed before the request: a replica answers only once it has replayed that far (waited for briefly), else the primary.
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
         * @description Re-queues a `dropped` delivery for one immediate attempt (status back to `pending`); if that attempt fails too, the delivery is `dropped` again. A delivery that is not `dropped`: 400 `invalid_request`; a `cancelled` one (its message was retracted or deleted: its content is never sent again) says so. The attempt goes to the endpoint's current URL; while the endpoint is disabled the delivery waits, `pending`, until it is enabled. Takes no body.
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
         * @description 404 `webhooks_not_configured` until a configuration with a webhook has been activated. Recorded in the organization's audit log with the key as the actor (`{kind: "key", id: "key_…"}`), never the secret.
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
         * @description Returns the new secret. For 24 h after a rotation every delivery carries both signatures, new first: `t=…,v1=<new>,v1=<old>`. Rotating again within those 24 h drops the oldest secret. 404 `webhooks_not_configured` when no secret exists yet. Takes no body. Recorded in the organization's audit log with the key as the actor (`{kind: "key", id: "key_…"}`), never the secret.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "channel.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `channel.deleted` event
         * @description A channel was deleted with its history, membership and bans (DELETE /v1/channels/{channelId} finished). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["channelDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "channel.occupancy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `channel.occupancy` event
         * @description The subscriptions of an occupied channel and the distinct users among them, over every gateway: at most once per channel every PRESENCE_OCCUPANCY_WEBHOOK_MS (15 s by default), only when a count changed since the last one. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["channelOccupancyEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "channel.occupied": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `channel.occupied` event
         * @description A channel got its first subscriber: nobody held a subscription of it on any gateway, now someone does. Once per cluster; a channel that is vacated and occupied again within one second on one gateway sends neither. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["channelOccupiedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "channel.vacated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `channel.vacated` event
         * @description A channel lost its last subscriber on every gateway (they left, or the gateway holding them stopped refreshing presence and its records expired after PRESENCE_TTL_MS). Once per cluster, after the `channel.occupied` it ends. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["channelVacatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "delivery.dropped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `delivery.dropped` event
         * @description Operational: a delivery was dropped after its last retry. Sent to the environment's other endpoints that take it; a dropped operational event reports nothing further. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["deliveryDroppedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endpoint.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `endpoint.disabled` event
         * @description Operational: an endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER was disabled. Sent to the environment's other endpoints that take it. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["endpointDisabledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.added": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `member.added` event
         * @description A user became a member of a channel, or their role changed. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["memberAddedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.banned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `member.banned` event
         * @description A user was banned from a channel, or from the whole environment (`channelId` null). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["memberBannedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.removed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `member.removed` event
         * @description A user stopped being a member of a channel (removed by the backend or a moderator). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["memberRemovedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.unbanned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `member.unbanned` event
         * @description A ban was lifted before it expired. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["memberUnbannedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `message.published` event
         * @description A message was persisted on a channel (ephemeral messages are not). `data` is the message envelope. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["messagePublishedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.reactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `message.reactions` event
         * @description A message's reactions changed: `data` is its summary now, at most one event per message every 250 ms however many reactions arrive (coalesced). Sent to webhook endpoints only (not to the configuration's URL). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["messageReactionsEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.retracted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `message.retracted` event
         * @description A message was retracted (by its sender, a moderator, the backend or an erasure). `data` is the tombstoned envelope. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["messageRetractedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `message.updated` event
         * @description A message was edited: `data` is the envelope with the new content, `version` (2 after the first edit), `updatedAt` and `updatedBy`. Sent to webhook endpoints only (not to the configuration's URL). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["messageUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "presence.entered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `presence.entered` event
         * @description Users entered the channel's presence (`presence-enter`) with their data, gathered per channel per second. Only for channels whose namespace turns `presenceWebhooks` on. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["presenceEnteredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "presence.left": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `presence.left` event
         * @description Users left the channel's presence (`presence-leave`, their subscription or connection ended, or their gateway stopped and its records expired), each with the data they had, gathered per channel per second. Only for channels whose namespace turns `presenceWebhooks` on. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["presenceLeftEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "usage.threshold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `usage.threshold` event
         * @description The environment used 80 % or 100 % of a monthly quota (`limits.monthlyMessages` or `limits.monthlyConnectionMinutes`, docs/quotas.md): once per environment, quota, threshold and calendar month (UTC), whatever the limit is changed to later in the month. `used` is the count when the threshold was seen (messages, or whole connection-minutes). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["usageThresholdEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "user.messages-erased": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `user.messages_erased` event
         * @description An erasure of a user's messages finished: every message they sent is retracted. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["userMessagesErasedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `webhook.test` event
         * @description Sent by POST /v1/webhook-endpoints/{endpointId}/test to that endpoint only. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.
         */
        post: operations["webhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
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
        /** @description This message was not published; the others are unaffected. */
        BatchItemError: {
            error: {
                code: string;
                quota?: components["schemas"]["QuotaRefusal"];
                reason?: string;
            };
        };
        BatchPublishResults: {
            results: (components["schemas"]["PublishedMessage"] | components["schemas"]["EphemeralMessage"] | components["schemas"]["BatchItemError"])[];
        };
        /** @description What the token may do, by channel pattern: an exact channel id, a prefix ending in `*`, or `*` for every channel, to a non-empty list of `subscribe`, `publish`, `history`, `presence`, `edit`, `react`. A channel gets the operations of every pattern it matches. At most 64 patterns and 2048 bytes serialized. Omitted: every operation on every channel the user may otherwise use. Carried in the token as the `cap` claim (docs/permissions.md). */
        CapabilitiesInput: {
            [key: string]: ("subscribe" | "publish" | "history" | "presence" | "edit" | "react")[];
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
                joinLeave: boolean;
                presence: boolean;
            };
            limits: components["schemas"]["Limits"];
            namespaces: components["schemas"]["Namespace"][];
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
        /** @description A JSON Merge Patch (RFC 7396) of the active configuration: objects merge member by member, `null` removes a setting (it takes its default), arrays (`namespaces`) are replaced whole, omitted fields are unchanged. */
        ConfigPatchInput: {
            /** @description Merged field by field. Null: every channel setting back to its default (`{access: "open", presence: true, joinLeave: false}`). */
            channels?: {
                /**
                 * @description Access of channels that have no access of their own. Omitted: unchanged (it cannot be removed).
                 * @enum {string}
                 */
                access?: "open" | "members";
                /** @description Null: back to the default (false). Omitted: unchanged. */
                joinLeave?: boolean | null;
                /** @description Null: back to the default (true). Omitted: unchanged. */
                presence?: boolean | null;
            } | null;
            /** @description Merged limit by limit: a number overrides that limit, null takes it back to its default, an omitted one is unchanged. Null: every limit at its default. */
            limits?: {
                anonymousMintsPerIpPerSecond?: number | null;
                anonymousMintsPerKeyPerSecond?: number | null;
                environmentEdgeReadsPerSecond?: number | null;
                environmentMessagesPerSecond?: number | null;
                /** @description Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new connections are refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default). */
                monthlyConnectionMinutes?: number | null;
                /** @description Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default). */
                monthlyMessages?: number | null;
                notificationsPerUserPerMinute?: number | null;
                secretKeyRequestsPerSecond?: number | null;
                socketsPerEnvironment?: number | null;
                socketsPerUser?: number | null;
                userHistoryReadsPerSecond?: number | null;
                userInboxReadsPerSecond?: number | null;
                userModerationsPerSecond?: number | null;
                userPublishesPerSecond?: number | null;
                userReactionsPerSecond?: number | null;
                userRetractsPerSecond?: number | null;
                userRosterReadsPerSecond?: number | null;
                userSocketOpensPerSecond?: number | null;
            } | null;
            /** @description Replaced whole when given (an array is never merged). Null: none. Omitted: unchanged. */
            namespaces?: components["schemas"]["NamespaceInput"][] | null;
            /** @description Null disables delivery; omitted: unchanged. */
            webhooks?: {
                /** @description Receiving endpoint; validated before anything is stored. */
                url: string;
            } | null;
        };
        CreatedWebhookEndpoint: {
            /** @description null: every channel. */
            channels: string[] | null;
            /** Format: date-time */
            createdAt: string;
            description: string;
            disabled: boolean;
            /** Format: date-time */
            disabledAt?: string;
            /**
             * @description `failing`: disabled after failing for WEBHOOK_DISABLE_AFTER.
             * @enum {string}
             */
            disabledReason?: "manual" | "failing";
            /** @description null: every event type but the `optIn` ones. */
            eventTypes: string[] | null;
            /**
             * Format: date-time
             * @description When its attempts started failing (none has succeeded since).
             */
            failingSince?: string;
            /** @description `ep_…` */
            id: string;
            rateLimitPerSecond: number | null;
            /** @description `whsec_` + base64: the signing secret of this endpoint (also at GET …/{endpointId}/secret). */
            secret: string;
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        DashboardAuditEntry: {
            /** @description `<target>.<verb>`, e.g. `key.revoked`, `member.role_changed`. */
            action: string;
            actor: {
                email: string | null;
                id: string | null;
                /**
                 * @description `cli`: the operator's admin CLI; `key`: a secret key on the control plane (`id` is the key's `key_…` id); `system`: the service itself.
                 * @enum {string}
                 */
                kind: "user" | "cli" | "key" | "system";
            };
            /** Format: date-time */
            at: string;
            details: {
                [key: string]: unknown;
            };
            id: string;
            target: {
                id: string | null;
                type: string;
            };
        };
        DashboardAuditPage: {
            data: components["schemas"]["DashboardAuditEntry"][];
            /** @description Null on the last page. */
            nextCursor: string | null;
        };
        DashboardBanPage: {
            data: components["schemas"]["Ban"][];
            /** @description Null on the last page. */
            nextAfter: string | null;
        };
        DashboardChannel: {
            channelId: string;
            /** Format: date-time */
            createdAt: string;
            /** @description When the newest persisted message was published; null without messages. */
            lastActivityAt: string | null;
            lastSeq: number;
            /** @description Persisted messages, retracted ones included. */
            messageCount: number;
        };
        DashboardChannelList: {
            data: components["schemas"]["DashboardChannel"][];
            /** @description Null on the last page. */
            nextCursor: string | null;
        };
        DashboardChannelMemberPage: {
            data: components["schemas"]["Membership"][];
            /** @description Null on the last page. */
            nextAfter: string | null;
        };
        DashboardCodeRequested: {
            /**
             * @description The same for every address, whether or not an account uses it.
             * @constant
             */
            status: "requested";
        };
        DashboardCreatedInvitation: {
            /** Format: date-time */
            createdAt: string;
            /** @description E-mail of the owner who invited (null: the admin CLI, or a deleted user). */
            createdBy: string | null;
            email: string | null;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            /** @description `<dashboard origin>/dashboard/accept-invitation#<token>`: the token travels in the fragment, never to a server log. */
            link: string;
            role: components["schemas"]["DashboardRole"];
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
            /** @description Single use; shown only in this answer (stored hashed). */
            token: string;
        };
        DashboardCreatedKey: {
            /** Format: date-time */
            createdAt: string;
            environmentId: string;
            id: string;
            /** @description The key itself, shown only in this answer (only its hash is stored). */
            key: string;
            /** @enum {string} */
            kind: "secret" | "publishable";
            /** @description Recorded at most once a minute per gateway: up to a minute behind. */
            lastUsedAt: string | null;
            /** @description The first characters of the key, to recognise it (`sk_AbCd…`). */
            prefix: string;
            revokedAt: string | null;
        };
        DashboardEnvironment: {
            activeKeyCount: number;
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            organizationId: string;
            originCount: number;
            projectId: string;
        };
        DashboardEnvironmentList: {
            data: components["schemas"]["DashboardEnvironment"][];
        };
        DashboardInvitation: {
            /** Format: date-time */
            createdAt: string;
            /** @description E-mail of the owner who invited (null: the admin CLI, or a deleted user). */
            createdBy: string | null;
            email: string | null;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            role: components["schemas"]["DashboardRole"];
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
        };
        DashboardInvitationList: {
            data: components["schemas"]["DashboardInvitation"][];
        };
        DashboardInvitationPreview: {
            /** @description When set, only this address may accept. */
            email: string | null;
            /** Format: date-time */
            expiresAt: string;
            organization: {
                id: string;
                name: string;
            };
            role: components["schemas"]["DashboardRole"];
        };
        DashboardKey: {
            /** Format: date-time */
            createdAt: string;
            environmentId: string;
            id: string;
            /** @enum {string} */
            kind: "secret" | "publishable";
            /** @description Recorded at most once a minute per gateway: up to a minute behind. */
            lastUsedAt: string | null;
            /** @description The first characters of the key, to recognise it (`sk_AbCd…`). */
            prefix: string;
            revokedAt: string | null;
        };
        DashboardKeyList: {
            data: components["schemas"]["DashboardKey"][];
        };
        DashboardMember: {
            email: string;
            /** Format: date-time */
            joinedAt: string;
            role: components["schemas"]["DashboardRole"];
            userId: string;
        };
        DashboardMemberList: {
            data: components["schemas"]["DashboardMember"][];
        };
        /** @description An organization of the user and their role in it. */
        DashboardMembership: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            role: components["schemas"]["DashboardRole"];
        };
        /** @description A persisted message as the control plane sees it (addressed messages included). */
        DashboardMessage: {
            channelId: string;
            /** @description The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted. */
            content: {
                [key: string]: unknown;
            } | null;
            ephemeral: boolean;
            id: string;
            /** @enum {string} */
            kind: "user" | "server" | "system";
            mentions?: string[];
            reactions?: components["schemas"]["ReactionSummary"];
            retracted: boolean;
            retractedAt: string | null;
            sender: {
                anon: boolean;
                id: string;
            };
            seq: number;
            timestamp: number;
            to?: string[];
            type: string;
            /** @description When the last edit committed (ms since the epoch); only on an edited message. */
            updatedAt?: number;
            /** @description Who made the last edit (null: the backend); only on an edited message. */
            updatedBy?: string | null;
            /** @description The content's version, from 2 once edited; absent for a message never edited (version 1). */
            version?: number;
        };
        DashboardMessagePage: {
            /** @description Newest first. */
            data: components["schemas"]["DashboardMessage"][];
            /** @description `before` of the next (older) page; null on the last page. */
            nextBefore: number | null;
        };
        DashboardOrganization: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            memberCount: number;
            name: string;
            projectCount: number;
            /** @description The signed-in user's role. */
            role: components["schemas"]["DashboardRole"];
        };
        DashboardOrganizationList: {
            data: components["schemas"]["DashboardMembership"][];
        };
        DashboardOrigin: {
            /** Format: date-time */
            createdAt: string;
            origin: string;
        };
        DashboardOriginList: {
            data: components["schemas"]["DashboardOrigin"][];
        };
        DashboardProject: {
            /** Format: date-time */
            createdAt: string;
            environmentCount: number;
            id: string;
            name: string;
            organizationId: string;
        };
        DashboardProjectList: {
            data: components["schemas"]["DashboardProject"][];
        };
        /**
         * @description `owner`: everything, and members and invitations; `admin`: manage projects, environments, keys, origins; `viewer`: read.
         * @enum {string}
         */
        DashboardRole: "owner" | "admin" | "viewer";
        /**
         * @description `owner`: everything, and members and invitations; `admin`: manage projects, environments, keys, origins; `viewer`: read.
         * @enum {string}
         */
        DashboardRoleInput: "owner" | "admin" | "viewer";
        DashboardRoleList: {
            data: {
                description: string;
                rights: ("read" | "manage" | "administer")[];
                role: components["schemas"]["DashboardRole"];
            }[];
        };
        DashboardSession: {
            /** @description Send it as `x-csrf-token` on every POST, PUT, PATCH and DELETE of the dashboard. */
            csrfToken: string;
            /**
             * Format: date-time
             * @description Absolute end of the session (sign-in + DASHBOARD_SESSION_MAX).
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @description When the session ends unless used before (last request + DASHBOARD_SESSION_IDLE).
             */
            idleExpiresAt: string;
            organizations: components["schemas"]["DashboardMembership"][];
            user: components["schemas"]["DashboardUser"];
        };
        DashboardUser: {
            /** Format: date-time */
            createdAt: string;
            email: string;
            id: string;
        };
        DashboardWebhook: {
            activatedAt: string | null;
            /** @description The active configuration deployment; null before the first deploy. */
            deploymentId: string | null;
            /** @description Whether the environment has a signing secret (made at the first deploy with a URL). */
            secretConfigured: boolean;
            /** @description The active webhook URL; null when delivery is off. */
            url: string | null;
        };
        DeletedChannel: {
            channelId: string;
            deleted: {
                bans: number;
                members: number;
                messages: number;
            };
        };
        /** @description A whole configuration: a deploy replaces the active one (omitted parts take their defaults: no webhook, open channels, default limits). */
        DeployConfigInput: {
            /** @description Omitted: `{access: "open", presence: true, joinLeave: false}`. */
            channels?: {
                /**
                 * @description Access of channels that have no access of their own.
                 * @enum {string}
                 */
                access: "open" | "members";
                /** @description Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the channels' subscribers. Needs `presence`. For channels whose namespace does not say. Omitted: false. */
                joinLeave?: boolean;
                /** @description Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, occupancy is refused (403 `forbidden`) and no presence frames are sent. For channels whose namespace does not say. Omitted: true. */
                presence?: boolean;
            };
            /** @description Omitted: every limit at its default (a deploy replaces earlier overrides). */
            limits?: components["schemas"]["LimitOverridesInput"];
            /** @description Omitted: none (every channel takes the defaults). Prefixes must be unique. */
            namespaces?: components["schemas"]["NamespaceInput"][];
            /** @description Null or omitted disables delivery. */
            webhooks?: {
                /** @description Receiving endpoint; validated before anything is stored. */
                url: string;
            } | null;
        };
        EditedMessage: {
            /** @description The edit's place in the channel's sequence. */
            eventSeq: number;
            id: string;
            seq: number;
            /** @description When the edit committed (ms since the epoch). */
            updatedAt: number;
            /** @description The new version: 2 after the first edit. */
            version: number;
        };
        EphemeralMessage: {
            /** @constant */
            ephemeral: true;
            id: string;
        };
        ErasureJob: {
            /** @description The channel deleted (`channel`); null for a user's erasure. */
            channelId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description A channel deletion's counts: messages deleted so far, members and bans once its last step ran. Null for a user's erasure, and for a channel deletion that found nothing to delete (no messages, members or bans: the DELETE would have answered 404). */
            deleted: {
                bans: number;
                members: number;
                messages: number;
            } | null;
            finishedAt: string | null;
            id: string;
            /**
             * @description `user_messages`: DELETE /v1/users/{userId}/messages. `channel`: DELETE /v1/channels/{channelId}.
             * @enum {string}
             */
            kind: "user_messages" | "channel";
            /** @description Why the last batch stopped (a running job is retried: seconds later, then backing off), or null. */
            lastError: string | null;
            /** @description Messages retracted so far (0 for a channel deletion). */
            retracted: number;
            /**
             * @description `running` until every message is retracted (or the channel deleted); then `done`. `failed`: the job gave up after ten runs in a row without progress (`lastError` says why); the messages it had passed stay retracted (or deleted), erasing the user (deleting the channel) again does the rest.
             * @enum {string}
             */
            status: "running" | "done" | "failed";
            /** Format: date-time */
            updatedAt: string;
            /** @description The user whose messages are retracted (`user_messages`); null for a channel deletion. */
            userId: string | null;
        };
        /** @description Every non-2xx response; the header x-service-error repeats code. */
        Error: {
            code: string;
            quota?: components["schemas"]["QuotaRefusal"];
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
        /** @description Rate limits and socket quotas of the environment, enforced across the whole cluster. Rates are per fixed one-second window; a request over one is refused with 429 `rate_limited` (`retry-after` set), a socket publish over one closes the socket with 4429, a socket over a quota is closed with 4429. Some events weigh more than one unit (a history page, a publish with mentions; docs/limits.md). Omitted fields take their defaults. `monthlyMessages` and `monthlyConnectionMinutes` are monthly quotas (docs/quotas.md): omitted or null is unlimited. */
        LimitOverridesInput: {
            /** @description Anonymous tokens minted with publishable keys from one client IP, per second. Default 10. */
            anonymousMintsPerIpPerSecond?: number;
            /** @description Anonymous tokens minted with one publishable key, per second. Default 100. */
            anonymousMintsPerKeyPerSecond?: number;
            /** @description Units of the six per-user realtime-edge limits above taken by every user of the environment together, per second. Default 20000. */
            environmentEdgeReadsPerSecond?: number;
            /** @description Messages published in the environment from every source, per second. Default 20000. */
            environmentMessagesPerSecond?: number;
            /** @description Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new connections are refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default). */
            monthlyConnectionMinutes?: number | null;
            /** @description Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default). */
            monthlyMessages?: number | null;
            /** @description Notifications stored for one user (mentions and POST /v1/notifications together), per fixed one-minute window; the rest are not stored. Default 120. */
            notificationsPerUserPerMinute?: number;
            /** @description Requests made with one secret key, per second. Default 10000. */
            secretKeyRequestsPerSecond?: number;
            /** @description Sockets the environment holds open at a time. Default 50000. */
            socketsPerEnvironment?: number;
            /** @description Sockets one user holds open at a time (channel and inbox sockets). Default 100. */
            socketsPerUser?: number;
            /** @description History read by one user on the realtime edge, in units per second: a page or socket replay costs one unit per 50 messages it may return (at least one). Default 100. */
            userHistoryReadsPerSecond?: number;
            /** @description Inbox read by one user on the realtime edge (GET /v1/inbox and the replays of inbox subscriptions), in units per second: one unit per 50 notifications a page may return (at least one). Default 20. */
            userInboxReadsPerSecond?: number;
            /** @description Removals, bans and unbans by one moderator on the realtime edge (HTTP and socket frames together), per second. Default 20. */
            userModerationsPerSecond?: number;
            /** @description Publishes by one user, HTTP and socket together, per second. A publish with mentions costs 1 + one unit per started 10 mentions. Default 50. */
            userPublishesPerSecond?: number;
            /** @description Reactions added or removed by one user on the realtime edge (HTTP and socket frames together), per second. Default 20. */
            userReactionsPerSecond?: number;
            /** @description Retractions by one user on the realtime edge (HTTP and socket frames together), per second. Default 50. */
            userRetractsPerSecond?: number;
            /** @description Roster and occupancy reads by one user on the realtime edge, per second. Default 20. */
            userRosterReadsPerSecond?: number;
            /** @description Sockets one user opens (channel, inbox and /v1/connect), per second. Default 30. */
            userSocketOpensPerSecond?: number;
        };
        /** @description The limits in force: the deployed overrides over the defaults. */
        Limits: {
            /** @description Anonymous tokens minted with publishable keys from one client IP, per second. Default 10. */
            anonymousMintsPerIpPerSecond: number;
            /** @description Anonymous tokens minted with one publishable key, per second. Default 100. */
            anonymousMintsPerKeyPerSecond: number;
            /** @description Units of the six per-user realtime-edge limits above taken by every user of the environment together, per second. Default 20000. */
            environmentEdgeReadsPerSecond: number;
            /** @description Messages published in the environment from every source, per second. Default 20000. */
            environmentMessagesPerSecond: number;
            /** @description Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new connections are refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default). */
            monthlyConnectionMinutes: number | null;
            /** @description Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default). */
            monthlyMessages: number | null;
            /** @description Notifications stored for one user (mentions and POST /v1/notifications together), per fixed one-minute window; the rest are not stored. Default 120. */
            notificationsPerUserPerMinute: number;
            /** @description Requests made with one secret key, per second. Default 10000. */
            secretKeyRequestsPerSecond: number;
            /** @description Sockets the environment holds open at a time. Default 50000. */
            socketsPerEnvironment: number;
            /** @description Sockets one user holds open at a time (channel and inbox sockets). Default 100. */
            socketsPerUser: number;
            /** @description History read by one user on the realtime edge, in units per second: a page or socket replay costs one unit per 50 messages it may return (at least one). Default 100. */
            userHistoryReadsPerSecond: number;
            /** @description Inbox read by one user on the realtime edge (GET /v1/inbox and the replays of inbox subscriptions), in units per second: one unit per 50 notifications a page may return (at least one). Default 20. */
            userInboxReadsPerSecond: number;
            /** @description Removals, bans and unbans by one moderator on the realtime edge (HTTP and socket frames together), per second. Default 20. */
            userModerationsPerSecond: number;
            /** @description Publishes by one user, HTTP and socket together, per second. A publish with mentions costs 1 + one unit per started 10 mentions. Default 50. */
            userPublishesPerSecond: number;
            /** @description Reactions added or removed by one user on the realtime edge (HTTP and socket frames together), per second. Default 20. */
            userReactionsPerSecond: number;
            /** @description Retractions by one user on the realtime edge (HTTP and socket frames together), per second. Default 50. */
            userRetractsPerSecond: number;
            /** @description Roster and occupancy reads by one user on the realtime edge, per second. Default 20. */
            userRosterReadsPerSecond: number;
            /** @description Sockets one user opens (channel, inbox and /v1/connect), per second. Default 30. */
            userSocketOpensPerSecond: number;
        };
        LogsToken: {
            /** Format: date-time */
            expiresAt: string;
            /** @description The logs socket of this environment on the realtime edge (`ws://` or `wss://`, without the token): open `socketUrl + "?token=" + token`. From REALTIME_PUBLIC_URL when the gateway has it, else the host name of this request with the realtime port; null when the request's Host header is unusable. */
            socketUrl: string | null;
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
            /**
             * @description `member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge.
             * @enum {string}
             */
            role: "member" | "moderator" | "readonly";
            /** Format: date-time */
            updatedAt: string;
            userId: string;
        };
        /** @description A message as history, socket frames and webhooks show it. */
        MessageEnvelope: {
            /** @description The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted. */
            content: {
                [key: string]: unknown;
            } | null;
            ephemeral: boolean;
            id: string;
            /** @enum {string} */
            kind: "user" | "server" | "system";
            mentions?: string[];
            reactions?: components["schemas"]["ReactionSummary"];
            retracted: boolean;
            sender: {
                anon: boolean;
                id: string;
            };
            seq: number;
            timestamp: number;
            to?: string[];
            type: string;
            /** @description When the last edit committed (ms since the epoch); only on an edited message. */
            updatedAt?: number;
            /** @description Who made the last edit (null: the backend); only on an edited message. */
            updatedBy?: string | null;
            /** @description The content's version, from 2 once edited; absent for a message never edited (version 1). */
            version?: number;
        };
        MessageVersions: {
            /** @description Oldest first; the last is the message's content now. */
            versions: {
                content: {
                    [key: string]: unknown;
                };
                /** @description null for version 1 (its time is the message's `timestamp`). */
                updatedAt: number | null;
                /** @description Who made this version: the editor's user id; null for version 1 and backend edits. */
                updatedBy: string | null;
                version: number;
            }[];
        };
        /** @description Settings of every channel whose id starts with `prefix` (docs/permissions.md). */
        Namespace: {
            /**
             * @description Access of the namespace's channels that have no access of their own (over `channels.access`). Omitted: `channels.access`.
             * @enum {string}
             */
            access?: "open" | "members";
            anonymous?: {
                /** @description Anonymous tokens may publish and retract. Default true. */
                publish?: boolean;
                /** @description Anonymous tokens may subscribe, read history and the roster. Default true. */
                subscribe?: boolean;
            };
            /** @description Subscribers may ask for delta-compressed messages (`delta: "fossil"` on `subscribe`, `?delta=fossil` on the channel socket and the event stream): each message as a fossil delta against the previous one they received. Where it is not on, such a subscribe is refused with `forbidden`. Applies to subscriptions made after the deploy. Default false. */
            delta?: boolean;
            /** @description false: history is refused to user tokens (403 `forbidden`). Default true. */
            history?: boolean;
            /** @description Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the channels' subscribers. Needs `presence`. Omitted: `channels.joinLeave`. */
            joinLeave?: boolean;
            /** @description Largest `content`, in UTF-8 bytes of its JSON text as sent (413 `payload_too_large` above it). Omitted: 65536. */
            maxContentBytes?: number;
            /** @description false: every message is ephemeral (202, no history, no webhook, no seq). Default true. */
            persist?: boolean;
            /** @description Channels whose id starts with this belong to the namespace; the longest matching prefix wins. */
            prefix: string;
            /** @description Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, occupancy is refused (403 `forbidden`) and no presence frames are sent. Omitted: `channels.presence`. */
            presence?: boolean;
            /** @description Send the `presence.entered` and `presence.left` webhook events of the namespace's channels (to the endpoints whose `eventTypes` name them; docs/webhook-events.md). Needs `presence`. Omitted: false. */
            presenceWebhooks?: boolean;
            /** @description Messages older than this many days are deleted (a job every 15 minutes). Omitted: kept. */
            retentionDays?: number;
        };
        /** @description Settings of every channel whose id starts with `prefix` (docs/permissions.md). */
        NamespaceInput: {
            /**
             * @description Access of the namespace's channels that have no access of their own (over `channels.access`). Omitted: `channels.access`.
             * @enum {string}
             */
            access?: "open" | "members";
            anonymous?: {
                /** @description Anonymous tokens may publish and retract. Default true. */
                publish?: boolean;
                /** @description Anonymous tokens may subscribe, read history and the roster. Default true. */
                subscribe?: boolean;
            };
            /** @description Subscribers may ask for delta-compressed messages (`delta: "fossil"` on `subscribe`, `?delta=fossil` on the channel socket and the event stream): each message as a fossil delta against the previous one they received. Where it is not on, such a subscribe is refused with `forbidden`. Applies to subscriptions made after the deploy. Default false. */
            delta?: boolean;
            /** @description false: history is refused to user tokens (403 `forbidden`). Default true. */
            history?: boolean;
            /** @description Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the channels' subscribers. Needs `presence`. Omitted: `channels.joinLeave`. */
            joinLeave?: boolean;
            /** @description Largest `content`, in UTF-8 bytes of its JSON text as sent (413 `payload_too_large` above it). Omitted: 65536. */
            maxContentBytes?: number;
            /** @description false: every message is ephemeral (202, no history, no webhook, no seq). Default true. */
            persist?: boolean;
            /** @description Channels whose id starts with this belong to the namespace; the longest matching prefix wins. */
            prefix: string;
            /** @description Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, occupancy is refused (403 `forbidden`) and no presence frames are sent. Omitted: `channels.presence`. */
            presence?: boolean;
            /** @description Send the `presence.entered` and `presence.left` webhook events of the namespace's channels (to the endpoints whose `eventTypes` name them; docs/webhook-events.md). Needs `presence`. Omitted: false. */
            presenceWebhooks?: boolean;
            /** @description Messages older than this many days are deleted (a job every 15 minutes). Omitted: kept. */
            retentionDays?: number;
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
            /** @description Present only when some users got nothing: they already had `notificationsPerUserPerMinute` notifications this minute (docs/limits.md). */
            dropped?: string[];
            /** @description One notification id per distinct user id that was sent one, in the order of first appearance (the users in `dropped` have none). */
            ids: string[];
        };
        Occupancy: {
            channelId: string;
            /** @description Live subscriptions of the channel (channel sockets and `/v1/connect` subscriptions) on every gateway. */
            connections: number;
            /** @description Distinct users among them. */
            users: number;
        };
        PublishedMessage: {
            id: string;
            seq: number;
            timestamp: number;
        };
        /** @description The monthly quotas of the environment and what it used of them this month. */
        Quota: {
            period: {
                /**
                 * Format: date-time
                 * @description The first instant of the next month: every count starts again from 0.
                 */
                resetsAt: string;
                /**
                 * Format: date-time
                 * @description The first instant of this calendar month (UTC).
                 */
                start: string;
            };
            quotas: {
                /** @description `limits.monthlyConnectionMinutes`: minutes of realtime connections, summed over every socket (flushed by each gateway every QUOTA_FLUSH_MS). */
                connectionMinutes: {
                    /** @description The monthly limit in whole minutes; null: unlimited. */
                    limit: number | null;
                    /** @description limit − used, never below 0; null when unlimited. */
                    remaining: number | null;
                    /** @description Used this month, in whole minutes. */
                    used: number;
                };
                /** @description `limits.monthlyMessages`: messages stored (publishes on every route and edits). */
                messages: {
                    /** @description The monthly limit in messages; null: unlimited. */
                    limit: number | null;
                    /** @description limit − used, never below 0; null when unlimited. */
                    remaining: number | null;
                    /** @description Used this month, in messages. */
                    used: number;
                };
            };
        };
        /** @description The monthly quota that is spent (only with the code `quota_exceeded`). */
        QuotaRefusal: {
            limit: number;
            /** @enum {string} */
            quota: "monthlyMessages" | "monthlyConnectionMinutes";
            /**
             * Format: date-time
             * @description The first instant of the next month (UTC): the quota starts again from 0.
             */
            resetsAt: string;
            /** @description Used this month when refused (messages, or whole connection-minutes). */
            used: number;
        };
        Reaction: {
            id: string;
            /** @description Whether the user now has this reaction on the message. */
            reacted: boolean;
            seq: number;
            type: string;
        };
        /** @description Reaction type → who reacted with it. Absent from a message nobody reacted to. */
        ReactionSummary: {
            [key: string]: {
                /** @description `users` does not name everyone (`count` is larger). */
                clipped: boolean;
                /** @description Users who reacted with this type. */
                count: number;
                /** @description The first 10 users who reacted with this type, oldest first. */
                users: string[];
            };
        };
        RetractedMessage: {
            /** @description The retraction's place in the channel's sequence; absent when the message was already retracted. */
            eventSeq?: number;
            id: string;
            /** @constant */
            retracted: true;
            seq: number;
        };
        RevokedToken: {
            jti: string;
            /**
             * Format: date-time
             * @description When the revocation is forgotten: no token it refuses can be unexpired by then.
             */
            rememberedUntil: string;
            /** @constant */
            revoked: true;
        };
        RevokedUserTokens: {
            /** Format: date-time */
            rememberedUntil: string;
            userId: string;
            /**
             * Format: date-time
             * @description Tokens of the user issued before this moment (to the millisecond) are refused.
             */
            validAfter: string;
        };
        Roster: {
            members: {
                /** @description The presence data the user entered with (`presence-enter`/`presence-update` on `/v1/connect`: any JSON, at most 1 KiB serialized; null when entered without). Absent when the user is offline or has not entered. */
                data?: unknown;
                online: boolean;
                /**
                 * @description `member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge.
                 * @enum {string}
                 */
                role: "member" | "moderator" | "readonly";
                userId: string;
            }[];
            /** @description Null on the last page; otherwise pass it as `cursor` for the next one. */
            nextCursor: string | null;
        };
        RotatedSigningKey: {
            id: string;
            retired: {
                id: string;
                /** Format: date-time */
                retiresAt: string;
            }[];
        };
        SigningKey: {
            /** Format: date-time */
            createdAt: string;
            /** @description The `kid` of the tokens it signs. */
            id: string;
            /** @description null: not retired. In the future: in its grace period (verifies, no longer signs). Past: its tokens are refused. */
            retiresAt: string | null;
            /** @enum {string} */
            state: "active" | "grace" | "retired";
        };
        SigningKeyList: {
            keys: components["schemas"]["SigningKey"][];
        };
        /** @description One interval of an environment's usage; the meaning of each counter is in docs/stats.md. */
        StatsEntry: {
            apiRequestsControl: number;
            apiRequestsRealtime: number;
            bytesDelivered: number;
            /** @description Over an hour, day or month: the highest of its minutes. */
            channelsActive: number;
            /** @description Connection-seconds / 60, 2 decimals. */
            connectionMinutes: number;
            /** @description Connection-seconds over the interval's seconds (the whole interval, the current one included), 2 decimals. */
            connectionsAverage: number;
            /** @description Over an hour, day or month: the highest of its minutes. */
            connectionsPeak: number;
            historyReads: number;
            messagesDelivered: number;
            /** @description Messages published by every route: the sum of the three below. */
            messagesPublished: number;
            messagesPublishedBatch: number;
            messagesPublishedHttp: number;
            messagesPublishedSocket: number;
            notifications: number;
            presenceEvents: number;
            /** @description The interval's start, ISO 8601 UTC. */
            start: string;
            /** @enum {string} */
            unit: "minute" | "hour" | "day" | "month";
            webhookDeliveries: number;
            webhookDropped: number;
            webhookEvents: number;
            webhookFailedAttempts: number;
        };
        StatsList: {
            /** @description One entry per interval with usage, in `direction` order; an interval with none is left out. */
            data: components["schemas"]["StatsEntry"][];
        };
        TokenJwks: {
            url: string;
        };
        TokenKey: {
            /** @enum {string} */
            alg: "RS256" | "ES256" | "EdDSA";
            /** Format: date-time */
            createdAt: string;
            jwk: {
                [key: string]: unknown;
            };
            kid: string;
        };
        TokenKeyList: {
            jwksUrl: string | null;
            keys: components["schemas"]["TokenKey"][];
        };
        UserToken: {
            /** Format: date-time */
            expiresAt: string;
            token: string;
            userId: string;
        };
        WebhookDelivery: {
            attempts: number;
            /** @description Absent for an event about no channel. */
            channelId?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            deliveredAt?: string;
            /** @description The endpoint (`ep_…`); null for the default one (the configuration's webhook URL). */
            endpointId: string | null;
            eventId: string;
            /** @enum {string} */
            eventType: "message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped";
            id: string;
            /** @description At most 1 KiB. */
            lastError?: string;
            lastStatusCode?: number;
            /**
             * Format: date-time
             * @description A pending delivery: when the next attempt is due.
             */
            nextAttemptAt?: string;
            /**
             * @description `pending`: waiting for its first attempt or a retry; `delivered`: a 2xx came back; `dropped`: the retries ran out (or the receiver answered 410); `cancelled`: its message was retracted (by its sender, a moderator or a user's erasure) or deleted with its channel before it was delivered: `lastError` is `message_retracted`, its stored body is redacted and it is never sent again (a manual retry or a recovery refuses or skips it). A delivered delivery of such a message stays `delivered`, its stored body redacted too.
             * @enum {string}
             */
            status: "pending" | "delivered" | "dropped" | "cancelled";
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
            /** @description Absent for an event about no channel. */
            channelId?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            deliveredAt?: string;
            /** @description The endpoint (`ep_…`); null for the default one (the configuration's webhook URL). */
            endpointId: string | null;
            eventId: string;
            /** @enum {string} */
            eventType: "message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped";
            id: string;
            /** @description At most 1 KiB. */
            lastError?: string;
            lastStatusCode?: number;
            /**
             * Format: date-time
             * @description A pending delivery: when the next attempt is due.
             */
            nextAttemptAt?: string;
            /**
             * @description `pending`: waiting for its first attempt or a retry; `delivered`: a 2xx came back; `dropped`: the retries ran out (or the receiver answered 410); `cancelled`: its message was retracted (by its sender, a moderator or a user's erasure) or deleted with its channel before it was delivered: `lastError` is `message_retracted`, its stored body is redacted and it is never sent again (a manual retry or a recovery refuses or skips it). A delivered delivery of such a message stays `delivered`, its stored body redacted too.
             * @enum {string}
             */
            status: "pending" | "delivered" | "dropped" | "cancelled";
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Null on the last page. */
            nextCursor: string | null;
        };
        WebhookEndpoint: {
            /** @description null: every channel. */
            channels: string[] | null;
            /** Format: date-time */
            createdAt: string;
            description: string;
            disabled: boolean;
            /** Format: date-time */
            disabledAt?: string;
            /**
             * @description `failing`: disabled after failing for WEBHOOK_DISABLE_AFTER.
             * @enum {string}
             */
            disabledReason?: "manual" | "failing";
            /** @description null: every event type but the `optIn` ones. */
            eventTypes: string[] | null;
            /**
             * Format: date-time
             * @description When its attempts started failing (none has succeeded since).
             */
            failingSince?: string;
            /** @description `ep_…` */
            id: string;
            rateLimitPerSecond: number | null;
            /** Format: date-time */
            updatedAt: string;
            url: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description Null on the last page. */
            nextCursor: string | null;
        };
        WebhookEventTypeList: {
            data: {
                description: string;
                /** @description An example `data`. */
                example: unknown;
                name: string;
                /** @description Sent only to endpoints whose `eventTypes` name it: an endpoint without a type filter does not get it. */
                optIn: boolean;
                /** @description JSON Schema of the event's `data`. */
                schema: {
                    [key: string]: unknown;
                };
            }[];
        };
        WebhookSecret: {
            /** @description `whsec_` + base64. `service-signature` is keyed with the whole string (UTF-8); the Standard Webhooks `webhook-signature` with the base64-decoded part after `whsec_`. */
            secret: string;
        };
        WebhookTask: {
            /** Format: date-time */
            createdAt: string;
            endpointId: string;
            error?: string;
            /** Format: date-time */
            finishedAt?: string;
            /** @description `wtk_…` */
            id: string;
            /** @constant */
            kind: "recover";
            /** @description Dropped deliveries queued again so far. */
            recovered: number;
            /** Format: date-time */
            since: string;
            /** @enum {string} */
            status: "running" | "completed" | "failed";
            until: string | null;
        };
        WebhookTaskAccepted: {
            taskId: string;
        };
        WebhookTestEvent: {
            /** @description The delivery in the ledger (`GET /v1/webhooks/deliveries/{deliveryId}`). */
            deliveryId: string;
            eventType: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    deleteChannel: {
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
                    "application/json": components["schemas"]["DeletedChannel"];
                };
            };
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureJob"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            query?: {
                /** @description Entries per page. Default and maximum 1000. */
                limit?: number;
                /** @description `nextCursor` of the previous page (opaque). */
                cursor?: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
                    role?: "member" | "moderator" | "readonly";
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
                    /** @description A JSON object, at most 64 KiB as sent (the UTF-8 bytes of its JSON text, spacing included; larger: 413 payload_too_large). Its text is kept exactly as sent (key order, spacing, escapes) on socket frames, in history and in webhook bodies. */
                    content: {
                        [key: string]: unknown;
                    };
                    /** @description Fan out to sockets only: no history, no webhook, no seq advance. */
                    ephemeral?: boolean;
                    /** @description The same key on the same channel within 24 h returns the first result and creates nothing. Ignored for ephemeral messages. */
                    idempotencyKey?: string;
                    /** @description Each mentioned user who may read the message gets an inbox notification of type "mention": decided when the message is stored, by the channel's access, membership and bans (and `to`, when given). Other ids are dropped silently, and so are notifications past the recipient's `notificationsPerUserPerMinute` (docs/limits.md); the message is published either way and the answer does not say who was notified. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    editMessage: {
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
        requestBody: {
            content: {
                "application/json": {
                    /** @description The new content: a JSON object, at most 64 KiB as sent, kept exactly as sent like a publish's. */
                    content: {
                        [key: string]: unknown;
                    };
                    /** @description Recorded as `updatedBy`; omitted: null (the backend edited). */
                    userId?: string;
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
                    "application/json": components["schemas"]["EditedMessage"];
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
            /** @description Error envelope; `code`: `conflict` */
            409: {
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    addReaction: {
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
        requestBody: {
            content: {
                "application/json": {
                    /** @description A short reaction name or emoji, 1-32 characters without spaces, e.g. "thumbsup" or "👍". */
                    type: string;
                    /** @description Who reacts. */
                    userId: string;
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
                    "application/json": components["schemas"]["Reaction"];
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
            /** @description Error envelope; `code`: `conflict` */
            409: {
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    removeReaction: {
        parameters: {
            query: {
                /** @description Whose reaction to remove. */
                userId: string;
            };
            header?: never;
            path: {
                /** @description The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application. */
                channelId: string;
                /** @description The message id (`msg_…`) its publish answered. */
                messageId: string;
                /** @description The reaction type. */
                type: string;
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
                    "application/json": components["schemas"]["Reaction"];
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
            /** @description Error envelope; `code`: `conflict` */
            409: {
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    listMessageVersions: {
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
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageVersions"];
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
            /** @description Error envelope; `code`: `conflict` */
            409: {
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getOccupancy: {
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
                    "application/json": components["schemas"]["Occupancy"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    putPresence: {
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
                    /** @description The `connectionId` of the caller's own open event stream or `/v1/connect` connection (its `connected` frame's), subscribed to the channel. */
                    connectionId: string;
                    /** @description Any JSON value, at most 1024 bytes serialized (larger: 413 `payload_too_large`). Without it: the entry has no data (null). */
                    data?: unknown;
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
                    "application/json": {
                        channelId: string;
                        /** @description The entry's data as set (null when entered without). */
                        data: unknown;
                        userId: string;
                    };
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    deletePresence: {
        parameters: {
            query: {
                /** @description The `connectionId` of the caller's own open event stream or `/v1/connect` connection (its `connected` frame's), subscribed to the channel. */
                connectionId: string;
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
            /** @description Left (or was not entered). */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    patchConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfigPatchInput"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRequestEmailVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
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
                    "application/json": components["schemas"]["DashboardCodeRequested"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["DashboardEnvironment"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardDeleteEnvironment: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The environment's exact name. */
                    confirm: string;
                };
            };
        };
        responses: {
            /** @description Deleted */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRenameEnvironment: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
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
                    "application/json": components["schemas"]["DashboardEnvironment"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListEnvironmentBans: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description `nextAfter` of the previous page: the last user id shown. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["DashboardBanPage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardPutEnvironmentBan: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An application user id: 1-128 of `[A-Za-z0-9_.:@-]`. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRemoveEnvironmentBan: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An application user id: 1-128 of `[A-Za-z0-9_.:@-]`. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListChannels: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description `nextCursor` of the previous page (opaque). */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["DashboardChannelList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListChannelBans: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description `nextAfter` of the previous page: the last user id shown. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
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
                    "application/json": components["schemas"]["DashboardBanPage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardPutChannelBan: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
                channelId: string;
                /** @description An application user id: 1-128 of `[A-Za-z0-9_.:@-]`. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRemoveChannelBan: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
                channelId: string;
                /** @description An application user id: 1-128 of `[A-Za-z0-9_.:@-]`. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListChannelMembers: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description `nextAfter` of the previous page: the last user id shown. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
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
                    "application/json": components["schemas"]["DashboardChannelMemberPage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardPutChannelMember: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
                channelId: string;
                /** @description An application user id: 1-128 of `[A-Za-z0-9_.:@-]`. */
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
                    role?: "member" | "moderator" | "readonly";
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRemoveChannelMember: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
                channelId: string;
                /** @description An application user id: 1-128 of `[A-Za-z0-9_.:@-]`. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListMessages: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description Exclusive upper seq bound: the `nextBefore` of the previous page. */
                before?: number;
                /** @description Only messages of this sender id (a user id, or e.g. "server"). */
                sender?: string;
                /** @description Only messages of this type. */
                type?: string;
                /** @description Only messages published at or after this time (ISO 8601). */
                since?: string;
                /** @description Only messages published before this time (ISO 8601). */
                until?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
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
                    "application/json": components["schemas"]["DashboardMessagePage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
                channelId: string;
                /** @description A message of the channel (`msg_…`). */
                messageId: string;
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
                    "application/json": components["schemas"]["DashboardMessage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRetractMessage: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`. */
                channelId: string;
                /** @description A message of the channel (`msg_…`). */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why: kept in the audit log and sent on the sockets' `retract` frame. */
                    reason: string;
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
                    "application/json": components["schemas"]["DashboardMessage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["DashboardKeyList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardCreateKey: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    kind: "secret" | "publishable";
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
                    "application/json": components["schemas"]["DashboardCreatedKey"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRevokeKey: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An API key of the environment. */
                keyId: string;
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
                    "application/json": components["schemas"]["DashboardKey"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListOrigins: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["DashboardOriginList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardAddOrigin: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    origin: string;
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
                    "application/json": components["schemas"]["DashboardOrigin"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardOrigin"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRemoveOrigin: {
        parameters: {
            query: {
                /** @description The allowed origin to remove, as listed (scheme://host[:port]). */
                origin: string;
            };
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetQuota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["Quota"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetStats: {
        parameters: {
            query?: {
                /** @description The interval of each entry (UTC; a month is a calendar month). Default `minute`. */
                unit?: "minute" | "hour" | "day" | "month";
                /** @description Epoch milliseconds or ISO 8601. Intervals that start at or after it. Default: `end` less `limit` units. */
                start?: string;
                /** @description Epoch milliseconds or ISO 8601. Intervals that start at or before it. Default: now. */
                end?: string;
                /** @description `backwards` (default): newest first; `forwards`: oldest first. */
                direction?: "forwards" | "backwards";
                /** @description Entries at most. Default 100, maximum 1000. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["StatsList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["DashboardWebhook"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardDeployWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The receiver's URL; null turns delivery off. */
                    url: string | null;
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
                    "application/json": components["schemas"]["DashboardWebhook"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 100. */
                limit?: number;
                /** @description `nextCursor` of the previous page (opaque). */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["WebhookEndpointList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardCreateWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only events of channels matching one of these patterns (an exact id, `prefix*` or `*`; at most 100). Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel. */
                    channels?: string[] | null;
                    description?: string;
                    /** @description Create it disabled (it gets nothing until enabled). */
                    disabled?: boolean;
                    /** @description Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named. */
                    eventTypes?: ("message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped")[] | null;
                    /** @description At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own. */
                    rateLimitPerSecond?: number | null;
                    /** @description Checked as the configuration's webhook URL is (422 `invalid_webhook_url`). */
                    url: string;
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
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
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
            /** @description Error envelope; `code`: `invalid_webhook_url` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
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
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardDeleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardUpdateWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only events of channels matching one of these patterns (an exact id, `prefix*` or `*`; at most 100). Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel. */
                    channels?: string[] | null;
                    description?: string;
                    /** @description Create it disabled (it gets nothing until enabled). */
                    disabled?: boolean;
                    /** @description Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named. */
                    eventTypes?: ("message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped")[] | null;
                    /** @description At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own. */
                    rateLimitPerSecond?: number | null;
                    /** @description Checked as the configuration's webhook URL is (422 `invalid_webhook_url`). */
                    url?: string;
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
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Error envelope; `code`: `invalid_webhook_url` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRecoverWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Re-send the deliveries dropped that were created at or after this time…
                     */
                    since: string;
                    /**
                     * Format: date-time
                     * @description …and before this one (default: now).
                     */
                    until?: string;
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
                    "application/json": components["schemas"]["WebhookTaskAccepted"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRevealWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardTestWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description An endpoint of the environment (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Send the catalogue's example of this type instead of `webhook.test`.
                     * @enum {string}
                     */
                    eventType?: "message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped";
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
                    "application/json": components["schemas"]["WebhookTestEvent"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListWebhookEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
                    "application/json": components["schemas"]["WebhookEventTypeList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetWebhookTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A task of the environment (`wtk_…`). */
                taskId: string;
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
                    "application/json": components["schemas"]["WebhookTask"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: "pending" | "delivered" | "dropped" | "cancelled";
                /** @description Only deliveries to this endpoint; `default` for the configuration's webhook URL. */
                endpointId?: string;
                /** @description Default 50, maximum 500. */
                limit?: number;
                /** @description `nextCursor` of the previous page (opaque). */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A delivery of the environment (`dlv_…`) from the ledger. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRetryDelivery: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
                /** @description A delivery of the environment (`dlv_…`) from the ledger. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRevealWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRotateWebhookSecret: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An environment of one of the user's organizations (another one: 404). */
                envId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardPreviewInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The single-use token of an invitation link. */
                token: string;
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
                    "application/json": components["schemas"]["DashboardInvitationPreview"];
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
            /** @description Error envelope; `code`: `not_found`, `webhooks_not_configured` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardAcceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The single-use token of an invitation link. */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A verification code mailed to the address (POST /v1/dashboard/email-verifications): needed to make a new account. */
                    code?: string;
                    /** @description Required when the invitation names no address; must match it when it does. */
                    email?: string;
                    /** @description The account's password, or the new account's (at least 10 characters). */
                    password: string;
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
                    "application/json": components["schemas"]["DashboardSession"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListOrganizations: {
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
                    "application/json": components["schemas"]["DashboardOrganizationList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
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
                    "application/json": components["schemas"]["DashboardOrganization"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListAudit: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 200. */
                limit?: number;
                /** @description `nextCursor` of the previous page (opaque). */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
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
                    "application/json": components["schemas"]["DashboardAuditPage"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
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
                    "application/json": components["schemas"]["DashboardInvitationList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardCreateInvitation: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description When set, only this address may accept. */
                    email?: string;
                    role: components["schemas"]["DashboardRoleInput"];
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
                    "application/json": components["schemas"]["DashboardCreatedInvitation"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRevokeInvitation: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
                /** @description An invitation of the organization. */
                invitationId: string;
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
                    "application/json": components["schemas"]["DashboardInvitation"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
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
                    "application/json": components["schemas"]["DashboardMemberList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardSetMemberRole: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
                /** @description A member of the organization. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    role: components["schemas"]["DashboardRoleInput"];
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
                    "application/json": components["schemas"]["DashboardMember"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRemoveMember: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
                /** @description A member of the organization. */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListProjects: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
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
                    "application/json": components["schemas"]["DashboardProjectList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardCreateProject: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
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
                    "application/json": components["schemas"]["DashboardProject"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An organization the signed-in user belongs to (another one: 404). */
                orgId: string;
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
                    "application/json": components["schemas"]["DashboardRoleList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRequestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
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
                    "application/json": components["schemas"]["DashboardCodeRequested"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardConfirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The reset code mailed to the address (POST /v1/dashboard/password-resets). */
                    code: string;
                    email: string;
                    /** @description The new password (at least 10 characters). */
                    password: string;
                };
            };
        };
        responses: {
            /** @description The password is set; every session of the account has ended */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A project of one of the user's organizations (another one: 404). */
                projectId: string;
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
                    "application/json": components["schemas"]["DashboardProject"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardDeleteProject: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description A project of one of the user's organizations (another one: 404). */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardRenameProject: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description A project of one of the user's organizations (another one: 404). */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
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
                    "application/json": components["schemas"]["DashboardProject"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardListEnvironments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A project of one of the user's organizations (another one: 404). */
                projectId: string;
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
                    "application/json": components["schemas"]["DashboardEnvironmentList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardCreateEnvironment: {
        parameters: {
            query?: never;
            header: {
                /** @description The session's `csrfToken` (from GET /v1/dashboard/session). */
                "x-csrf-token": string;
            };
            path: {
                /** @description A project of one of the user's organizations (another one: 404). */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
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
                    "application/json": components["schemas"]["DashboardEnvironment"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardGetSession: {
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
                    "application/json": components["schemas"]["DashboardSession"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
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
                    "application/json": components["schemas"]["DashboardSession"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    dashboardSignOut: {
        parameters: {
            query?: never;
            header?: {
                /** @description The session's `csrfToken`; required while the session is live. */
                "x-csrf-token"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            header?: {
                /** @description The session's `csrfToken`; required while the session is live. */
                "x-csrf-token"?: string;
            };
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getErasureJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id from DELETE /v1/users/{userId}/messages, or from a DELETE /v1/channels/{channelId} answered 202. */
                jobId: string;
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
                    "application/json": components["schemas"]["ErasureJob"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    openEvents: {
        parameters: {
            query?: {
                /** @description Comma-separated, 1-20 distinct entries (0-20 with `inbox`): `<channelId>` (start live, or where the last event id left it), `<channelId>~<seq>` (resume after `seq`, as `subscribe` with `since`; it wins over the event id) or `<channelId>~rewind:<N or duration>` (as `subscribe` with `rewind`: the last N messages, 1-100, or those of the last `30s`, `2m`, `1h`, at most 24h; used only when the event id gives the channel no position, so a reconnect resumes instead of rewinding again). */
                channels?: string;
                /** @description The user's inbox on the stream, as `subscribe-inbox`: `1` from the start (every retained notification), or `<notification id>` (resume after it, as `since`). Its notifications, then `inbox-subscribed`. The event id holds its position too (`inbox~<id>`): a reconnect resumes after the later of the two. */
                inbox?: string;
                /** @description Every channel of the stream as `subscribe` with `delta`: `fossil`, each message's `content` as a fossil delta against the previous message the stream sent on that channel (`delta: {format, base, data}` in place of `content`). A channel whose namespace does not turn `delta` on is refused (an `error` event with its `channelId`, code `forbidden`); the others go on. */
                delta?: "fossil";
                /** @description The user token (an EventSource cannot send `Authorization`). */
                token?: string;
                /** @description The id of the last event received, for clients that cannot send the `Last-Event-ID` header (the header wins when both are sent). */
                lastEventId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream: `retry: 1000`, then one event per frame, `id: <positions>` and `data: <frame JSON>` (the frames of `/v1/connect`: `connected`, each channel's replay and `subscribed`, then live frames; `closed` last), and `: ping` every 15 s. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    publishBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    messages: {
                        /** @description The channel this message goes to. */
                        channelId: string;
                        /** @description A JSON object, at most 64 KiB as sent (the UTF-8 bytes of its JSON text, spacing included; larger: 413 payload_too_large). Its text is kept exactly as sent (key order, spacing, escapes) on socket frames, in history and in webhook bodies. */
                        content: {
                            [key: string]: unknown;
                        };
                        /** @description Fan out to sockets only: no history, no webhook, no seq advance. */
                        ephemeral?: boolean;
                        /** @description The same key on the same channel within 24 h returns the first result and creates nothing. Ignored for ephemeral messages. */
                        idempotencyKey?: string;
                        /** @description Each mentioned user who may read the message gets an inbox notification of type "mention": decided when the message is stored, by the channel's access, membership and bans (and `to`, when given). Other ids are dropped silently, and so are notifications past the recipient's `notificationsPerUserPerMinute` (docs/limits.md); the message is published either way and the answer does not say who was notified. */
                        mentions?: string[];
                        /** @description Sender shown to clients; default "server". */
                        senderId?: string;
                        /** @description Only these users and the sender receive it on sockets and see it in history. */
                        to?: string[];
                        /** @description Application-defined message type, 1-64 chars; default "message". */
                        type?: string;
                    }[];
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
                    "application/json": components["schemas"]["BatchPublishResults"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getQuota: {
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
                    "application/json": components["schemas"]["Quota"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    listSigningKeys: {
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
                    "application/json": components["schemas"]["SigningKeyList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    rotateSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description How long tokens signed by the keys rotated out still verify (default 86400: 24 h; 0: refused at once). */
                    graceSeconds?: number;
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
                    "application/json": components["schemas"]["RotatedSigningKey"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getStats: {
        parameters: {
            query?: {
                /** @description The interval of each entry (UTC; a month is a calendar month). Default `minute`. */
                unit?: "minute" | "hour" | "day" | "month";
                /** @description Epoch milliseconds or ISO 8601. Intervals that start at or after it. Default: `end` less `limit` units. */
                start?: string;
                /** @description Epoch milliseconds or ISO 8601. Intervals that start at or before it. Default: now. */
                end?: string;
                /** @description `backwards` (default): newest first; `forwards`: oldest first. */
                direction?: "forwards" | "backwards";
                /** @description Entries at most. Default 100, maximum 1000. */
                limit?: number;
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
                    "application/json": components["schemas"]["StatsList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    putTokenJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
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
                    "application/json": components["schemas"]["TokenJwks"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    deleteTokenJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    listTokenKeys: {
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
                    "application/json": components["schemas"]["TokenKeyList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    putTokenKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `kid` tokens signed with this key carry. */
                kid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    alg: "RS256" | "ES256" | "EdDSA";
                    /** @description The public key as a JWK (RSA ≥ 2048 bits for RS256, EC P-256 for ES256, OKP Ed25519 for EdDSA). A private key is refused. */
                    jwk: {
                        [key: string]: unknown;
                    };
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
                    "application/json": components["schemas"]["TokenKey"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    deleteTokenKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `kid` tokens signed with this key carry. */
                kid: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
                    capabilities?: components["schemas"]["CapabilitiesInput"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
                    capabilities?: components["schemas"]["CapabilitiesInput"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The token's `jti` claim. */
                    jti: string;
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
                    "application/json": components["schemas"]["RevokedToken"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    eraseUserMessages: {
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
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureJob"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    revokeUserTokens: {
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
                    "application/json": components["schemas"]["RevokedUserTokens"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Default 50, maximum 100. */
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
                    "application/json": components["schemas"]["WebhookEndpointList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only events of channels matching one of these patterns (an exact id, `prefix*` or `*`; at most 100). Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel. */
                    channels?: string[] | null;
                    description?: string;
                    /** @description Create it disabled (it gets nothing until enabled). */
                    disabled?: boolean;
                    /** @description Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named. */
                    eventTypes?: ("message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped")[] | null;
                    /** @description At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own. */
                    rateLimitPerSecond?: number | null;
                    /** @description Checked as the configuration's webhook URL is (422 `invalid_webhook_url`). */
                    url: string;
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
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
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
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only events of channels matching one of these patterns (an exact id, `prefix*` or `*`; at most 100). Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel. */
                    channels?: string[] | null;
                    description?: string;
                    /** @description Create it disabled (it gets nothing until enabled). */
                    disabled?: boolean;
                    /** @description Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named. */
                    eventTypes?: ("message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped")[] | null;
                    /** @description At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own. */
                    rateLimitPerSecond?: number | null;
                    /** @description Checked as the configuration's webhook URL is (422 `invalid_webhook_url`). */
                    url?: string;
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
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Error envelope; `code`: `invalid_webhook_url` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    recoverWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Re-send the deliveries dropped that were created at or after this time…
                     */
                    since: string;
                    /**
                     * Format: date-time
                     * @description …and before this one (default: now).
                     */
                    until?: string;
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
                    "application/json": components["schemas"]["WebhookTaskAccepted"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint (`ep_…`). */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Send the catalogue's example of this type instead of `webhook.test`.
                     * @enum {string}
                     */
                    eventType?: "message.published" | "message.retracted" | "message.updated" | "message.reactions" | "member.added" | "member.removed" | "member.banned" | "member.unbanned" | "channel.deleted" | "channel.occupied" | "channel.vacated" | "channel.occupancy" | "presence.entered" | "presence.left" | "user.messages_erased" | "usage.threshold" | "webhook.test" | "endpoint.disabled" | "delivery.dropped";
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
                    "application/json": components["schemas"]["WebhookTestEvent"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    listWebhookEventTypes: {
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
                    "application/json": components["schemas"]["WebhookEventTypeList"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    getWebhookTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The task (`wtk_…`) from the 202 that started it. */
                taskId: string;
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
                    "application/json": components["schemas"]["WebhookTask"];
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
                status?: "pending" | "delivered" | "dropped" | "cancelled";
                /** @description Only deliveries to this endpoint; `default` for the configuration's webhook URL. */
                endpointId?: string;
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
            /** @description Error envelope; `code`: `rate_limited`, `quota_exceeded` */
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
    channelDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                        /** @description Messages deleted. */
                        messages: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "channel.deleted";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    channelOccupancyEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                        connections: number;
                        users: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "channel.occupancy";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    channelOccupiedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "channel.occupied";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    channelVacatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "channel.vacated";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliveryDroppedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        attempts: number;
                        deliveryId: string;
                        /** @description null for the default endpoint (the configuration's webhook URL). */
                        endpointId: string | null;
                        eventId: string;
                        eventType: string;
                        lastError: string | null;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "delivery.dropped";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    endpointDisabledEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        /** Format: date-time */
                        disabledAt: string;
                        endpointId: string;
                        /** Format: date-time */
                        failingSince: string;
                        /** @description The disabled endpoint's URL, redacted: query values and userinfo masked (`?token=***`). */
                        url: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "endpoint.disabled";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberAddedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                        /**
                         * @description `member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge.
                         * @enum {string}
                         */
                        role: "member" | "moderator" | "readonly";
                        userId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "member.added";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberBannedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId?: string;
                    data: {
                        /** @description null for an environment-wide ban. */
                        channelId: string | null;
                        expiresAt: string | null;
                        reason: string | null;
                        userId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "member.banned";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberRemovedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                        /**
                         * @description `member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge.
                         * @enum {string}
                         */
                        role: "member" | "moderator" | "readonly";
                        userId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "member.removed";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberUnbannedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId?: string;
                    data: {
                        /** @description null for an environment-wide ban. */
                        channelId: string | null;
                        expiresAt: string | null;
                        reason: string | null;
                        userId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "member.unbanned";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    messagePublishedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    /** @description A message as history, socket frames and webhooks show it. */
                    data: {
                        /** @description The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted. */
                        content: {
                            [key: string]: unknown;
                        } | null;
                        ephemeral: boolean;
                        id: string;
                        /** @enum {string} */
                        kind: "user" | "server" | "system";
                        mentions?: string[];
                        /** @description Reaction type → who reacted with it. Absent from a message nobody reacted to. */
                        reactions?: {
                            [key: string]: {
                                /** @description `users` does not name everyone (`count` is larger). */
                                clipped: boolean;
                                /** @description Users who reacted with this type. */
                                count: number;
                                /** @description The first 10 users who reacted with this type, oldest first. */
                                users: string[];
                            };
                        };
                        retracted: boolean;
                        sender: {
                            anon: boolean;
                            id: string;
                        };
                        seq: number;
                        timestamp: number;
                        to?: string[];
                        type: string;
                        /** @description When the last edit committed (ms since the epoch); only on an edited message. */
                        updatedAt?: number;
                        /** @description Who made the last edit (null: the backend); only on an edited message. */
                        updatedBy?: string | null;
                        /** @description The content's version, from 2 once edited; absent for a message never edited (version 1). */
                        version?: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "message.published";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    messageReactionsEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        /** @description The message id. */
                        id: string;
                        /** @description Reaction type → count and first users; `{}` once the last reaction is removed. */
                        reactions: {
                            [key: string]: {
                                /** @description `users` does not name everyone (`count` is larger). */
                                clipped: boolean;
                                /** @description Users who reacted with this type. */
                                count: number;
                                /** @description The first 10 users who reacted with this type, oldest first. */
                                users: string[];
                            };
                        };
                        /** @description The message's seq. */
                        seq: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "message.reactions";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    messageRetractedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    /** @description A message as history, socket frames and webhooks show it. */
                    data: {
                        /** @description The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted. */
                        content: {
                            [key: string]: unknown;
                        } | null;
                        ephemeral: boolean;
                        id: string;
                        /** @enum {string} */
                        kind: "user" | "server" | "system";
                        mentions?: string[];
                        /** @description Reaction type → who reacted with it. Absent from a message nobody reacted to. */
                        reactions?: {
                            [key: string]: {
                                /** @description `users` does not name everyone (`count` is larger). */
                                clipped: boolean;
                                /** @description Users who reacted with this type. */
                                count: number;
                                /** @description The first 10 users who reacted with this type, oldest first. */
                                users: string[];
                            };
                        };
                        retracted: boolean;
                        sender: {
                            anon: boolean;
                            id: string;
                        };
                        seq: number;
                        timestamp: number;
                        to?: string[];
                        type: string;
                        /** @description When the last edit committed (ms since the epoch); only on an edited message. */
                        updatedAt?: number;
                        /** @description Who made the last edit (null: the backend); only on an edited message. */
                        updatedBy?: string | null;
                        /** @description The content's version, from 2 once edited; absent for a message never edited (version 1). */
                        version?: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "message.retracted";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    messageUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    /** @description A message as history, socket frames and webhooks show it. */
                    data: {
                        /** @description The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted. */
                        content: {
                            [key: string]: unknown;
                        } | null;
                        ephemeral: boolean;
                        id: string;
                        /** @enum {string} */
                        kind: "user" | "server" | "system";
                        mentions?: string[];
                        /** @description Reaction type → who reacted with it. Absent from a message nobody reacted to. */
                        reactions?: {
                            [key: string]: {
                                /** @description `users` does not name everyone (`count` is larger). */
                                clipped: boolean;
                                /** @description Users who reacted with this type. */
                                count: number;
                                /** @description The first 10 users who reacted with this type, oldest first. */
                                users: string[];
                            };
                        };
                        retracted: boolean;
                        sender: {
                            anon: boolean;
                            id: string;
                        };
                        seq: number;
                        timestamp: number;
                        to?: string[];
                        type: string;
                        /** @description When the last edit committed (ms since the epoch); only on an edited message. */
                        updatedAt?: number;
                        /** @description Who made the last edit (null: the backend); only on an edited message. */
                        updatedBy?: string | null;
                        /** @description The content's version, from 2 once edited; absent for a message never edited (version 1). */
                        version?: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "message.updated";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    presenceEnteredEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                        /** @description At most 50, sorted by userId; more in one interval go in further events. */
                        members: {
                            /** @description The presence data the user entered with (any JSON, at most 1 KiB serialized; `null` when entered without). */
                            data: unknown;
                            userId: string;
                        }[];
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "presence.entered";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    presenceLeftEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The channel the event is about (absent for an environment-wide ban). */
                    channelId: string;
                    data: {
                        channelId: string;
                        /** @description At most 50, sorted by userId; more in one interval go in further events. */
                        members: {
                            /** @description The presence data the user entered with (any JSON, at most 1 KiB serialized; `null` when entered without). */
                            data: unknown;
                            userId: string;
                        }[];
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "presence.left";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    usageThresholdEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        limit: number;
                        period: {
                            /**
                             * Format: date-time
                             * @description The next month's first instant.
                             */
                            resetsAt: string;
                            /**
                             * Format: date-time
                             * @description The month's first instant (UTC).
                             */
                            start: string;
                        };
                        /** @enum {string} */
                        quota: "monthlyMessages" | "monthlyConnectionMinutes";
                        threshold: 80 | 100;
                        used: number;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "usage.threshold";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    userMessagesErasedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        erasureId: string;
                        retracted: number;
                        userId: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "user.messages_erased";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTestEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id, the same on every attempt and every endpoint: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds of the attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first. */
                "webhook-signature": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret. */
                "service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        endpointId: string;
                        message: string;
                    };
                    environmentId: string;
                    /** @description The event id (`webhook-id`). */
                    id: string;
                    /** @description Milliseconds since the epoch. */
                    timestamp: number;
                    /** @constant */
                    type: "webhook.test";
                };
            };
        };
        responses: {
            /** @description Acknowledged (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
