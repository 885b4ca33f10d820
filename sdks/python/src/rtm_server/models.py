# Generated from docs/openapi.json by scripts/generate-python-sdk.ts: run
# `npx tsx scripts/generate-python-sdk.ts` after the document changes. Do not edit by hand.
"""Typed models of Realtime messaging service 1.0.0: TypedDicts (plain dicts at run time) for the control plane's requests and answers and the webhook events."""
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union


class Ban(TypedDict):
    channelId: Optional[str]
    """null for an environment-wide ban."""
    createdAt: str
    expiresAt: Optional[str]
    reason: Optional[str]
    userId: str


class _BatchItemErrorErrorRequired(TypedDict):
    code: str


class BatchItemErrorError(_BatchItemErrorErrorRequired, total=False):
    quota: QuotaRefusal
    reason: str


class BatchItemError(TypedDict):
    """This message was not published; the others are unaffected."""

    error: BatchItemErrorError


class BatchPublishResults(TypedDict):
    results: List[Union[PublishedMessage, EphemeralMessage, BatchItemError]]


CapabilitiesInput = Dict[str, List[Literal["subscribe", "publish", "history", "presence", "edit", "react"]]]
"""What the token may do, by channel pattern: an exact channel id, a prefix ending in `*`, or `*` for every channel, to a non-empty list of `subscribe`, `publish`, `history`, `presence`, `edit`, `react`. A channel gets the operations of every pattern it matches. At most 64 patterns and 2048 bytes serialized. Omitted: every operation on every channel the user may otherwise use. Carried in the token as the `cap` claim (docs/permissions.md)."""


class ChannelSettings(TypedDict):
    access: Literal["open", "members"]
    channelId: str


class ConfigChannels(TypedDict):
    access: Literal["open", "members"]
    joinLeave: bool
    presence: bool


class ConfigWebhooks(TypedDict):
    url: str


class Config(TypedDict):
    channels: ConfigChannels
    limits: Limits
    namespaces: List[Namespace]
    webhooks: Optional[ConfigWebhooks]


class ConfigDeployment(TypedDict):
    activatedAt: Optional[str]
    config: Config
    deploymentId: Optional[str]
    """Null before the first deploy."""


class ConfigPatchInputChannels(TypedDict, total=False):
    access: Literal["open", "members"]
    """Access of channels that have no access of their own. Omitted: unchanged (it cannot be removed)."""
    joinLeave: Optional[bool]
    """Null: back to the default (false). Omitted: unchanged."""
    presence: Optional[bool]
    """Null: back to the default (true). Omitted: unchanged."""


class ConfigPatchInputLimits(TypedDict, total=False):
    anonymousMintsPerIpPerSecond: Optional[int]
    anonymousMintsPerKeyPerSecond: Optional[int]
    environmentEdgeReadsPerSecond: Optional[int]
    environmentMessagesPerSecond: Optional[int]
    monthlyConnectionMinutes: Optional[int]
    """Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new connections are refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default)."""
    monthlyMessages: Optional[int]
    """Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default)."""
    notificationsPerUserPerMinute: Optional[int]
    secretKeyRequestsPerSecond: Optional[int]
    socketsPerEnvironment: Optional[int]
    socketsPerUser: Optional[int]
    userHistoryReadsPerSecond: Optional[int]
    userInboxReadsPerSecond: Optional[int]
    userModerationsPerSecond: Optional[int]
    userPublishesPerSecond: Optional[int]
    userReactionsPerSecond: Optional[int]
    userRetractsPerSecond: Optional[int]
    userRosterReadsPerSecond: Optional[int]
    userSocketOpensPerSecond: Optional[int]


class ConfigPatchInputWebhooks(TypedDict):
    url: str
    """Receiving endpoint; validated before anything is stored."""


class ConfigPatchInput(TypedDict, total=False):
    """A JSON Merge Patch (RFC 7396) of the active configuration: objects merge member by member, `null` removes a setting (it takes its default), arrays (`namespaces`) are replaced whole, omitted fields are unchanged."""

    channels: Optional[ConfigPatchInputChannels]
    """Merged field by field. Null: every channel setting back to its default (`{access: "open", presence: true, joinLeave: false}`)."""
    limits: Optional[ConfigPatchInputLimits]
    """Merged limit by limit: a number overrides that limit, null takes it back to its default, an omitted one is unchanged. Null: every limit at its default."""
    namespaces: Optional[List[NamespaceInput]]
    """Replaced whole when given (an array is never merged). Null: none. Omitted: unchanged."""
    webhooks: Optional[ConfigPatchInputWebhooks]
    """Null disables delivery; omitted: unchanged."""


class _CreatedWebhookEndpointRequired(TypedDict):
    channels: Optional[List[str]]
    """null: every channel."""
    createdAt: str
    description: str
    disabled: bool
    eventTypes: Optional[List[str]]
    """null: every event type but the `optIn` ones."""
    id: str
    """`ep_…`"""
    rateLimitPerSecond: Optional[int]
    secret: str
    """`whsec_` + base64: the signing secret of this endpoint (also at GET …/{endpointId}/secret)."""
    updatedAt: str
    url: str


class CreatedWebhookEndpoint(_CreatedWebhookEndpointRequired, total=False):
    disabledAt: str
    disabledReason: Literal["manual", "failing"]
    """`failing`: disabled after failing for WEBHOOK_DISABLE_AFTER."""
    failingSince: str
    """When its attempts started failing (none has succeeded since)."""


class DeletedChannelDeleted(TypedDict):
    bans: int
    members: int
    messages: int


class DeletedChannel(TypedDict):
    channelId: str
    deleted: DeletedChannelDeleted


class _DeployConfigInputChannelsRequired(TypedDict):
    access: Literal["open", "members"]
    """Access of channels that have no access of their own."""


class DeployConfigInputChannels(_DeployConfigInputChannelsRequired, total=False):
    """Omitted: `{access: "open", presence: true, joinLeave: false}`."""

    joinLeave: bool
    """Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the channels' subscribers. Needs `presence`. For channels whose namespace does not say. Omitted: false."""
    presence: bool
    """Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, occupancy is refused (403 `forbidden`) and no presence frames are sent. For channels whose namespace does not say. Omitted: true."""


class DeployConfigInputWebhooks(TypedDict):
    url: str
    """Receiving endpoint; validated before anything is stored."""


class DeployConfigInput(TypedDict, total=False):
    """A whole configuration: a deploy replaces the active one (omitted parts take their defaults: no webhook, open channels, default limits)."""

    channels: DeployConfigInputChannels
    """Omitted: `{access: "open", presence: true, joinLeave: false}`."""
    limits: LimitOverridesInput
    """Omitted: every limit at its default (a deploy replaces earlier overrides)."""
    namespaces: List[NamespaceInput]
    """Omitted: none (every channel takes the defaults). Prefixes must be unique."""
    webhooks: Optional[DeployConfigInputWebhooks]
    """Null or omitted disables delivery."""


class EditedMessage(TypedDict):
    eventSeq: int
    """The edit's place in the channel's sequence."""
    id: str
    seq: int
    updatedAt: int
    """When the edit committed (ms since the epoch)."""
    version: int
    """The new version: 2 after the first edit."""


class EphemeralMessage(TypedDict):
    ephemeral: Literal[True]
    id: str


class ErasureJobDeleted(TypedDict):
    bans: int
    members: int
    messages: int


class ErasureJob(TypedDict):
    channelId: Optional[str]
    """The channel deleted (`channel`); null for a user's erasure."""
    createdAt: str
    deleted: Optional[ErasureJobDeleted]
    """A channel deletion's counts: messages deleted so far, members and bans once its last step ran. Null for a user's erasure, and for a channel deletion that found nothing to delete (no messages, members or bans: the DELETE would have answered 404)."""
    finishedAt: Optional[str]
    id: str
    kind: Literal["user_messages", "channel"]
    """`user_messages`: DELETE /v1/users/{userId}/messages. `channel`: DELETE /v1/channels/{channelId}."""
    lastError: Optional[str]
    """Why the last batch stopped (a running job is retried: seconds later, then backing off), or null."""
    retracted: int
    """Messages retracted so far (0 for a channel deletion)."""
    status: Literal["running", "done", "failed"]
    """`running` until every message is retracted (or the channel deleted); then `done`. `failed`: the job gave up after ten runs in a row without progress (`lastError` says why); the messages it had passed stay retracted (or deleted), erasing the user (deleting the channel) again does the rest."""
    updatedAt: str
    userId: Optional[str]
    """The user whose messages are retracted (`user_messages`); null for a channel deletion."""


class History(TypedDict):
    hasMore: bool
    """More messages exist beyond this page in the paging direction."""
    messages: List[MessageEnvelope]
    """Ascending by seq."""


class LimitOverridesInput(TypedDict, total=False):
    """Rate limits and socket quotas of the environment, enforced across the whole cluster. Rates are per fixed one-second window; a request over one is refused with 429 `rate_limited` (`retry-after` set), a socket publish over one closes the socket with 4429, a socket over a quota is closed with 4429. Some events weigh more than one unit (a history page, a publish with mentions; docs/limits.md). Omitted fields take their defaults. `monthlyMessages` and `monthlyConnectionMinutes` are monthly quotas (docs/quotas.md): omitted or null is unlimited."""

    anonymousMintsPerIpPerSecond: int
    """Anonymous tokens minted with publishable keys from one client IP, per second. Default 10."""
    anonymousMintsPerKeyPerSecond: int
    """Anonymous tokens minted with one publishable key, per second. Default 100."""
    environmentEdgeReadsPerSecond: int
    """Units of the six per-user realtime-edge limits above taken by every user of the environment together, per second. Default 20000."""
    environmentMessagesPerSecond: int
    """Messages published in the environment from every source, per second. Default 20000."""
    monthlyConnectionMinutes: Optional[int]
    """Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new connections are refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default)."""
    monthlyMessages: Optional[int]
    """Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default)."""
    notificationsPerUserPerMinute: int
    """Notifications stored for one user (mentions and POST /v1/notifications together), per fixed one-minute window; the rest are not stored. Default 120."""
    secretKeyRequestsPerSecond: int
    """Requests made with one secret key, per second. Default 10000."""
    socketsPerEnvironment: int
    """Sockets the environment holds open at a time. Default 50000."""
    socketsPerUser: int
    """Sockets one user holds open at a time (channel and inbox sockets). Default 100."""
    userHistoryReadsPerSecond: int
    """History read by one user on the realtime edge, in units per second: a page or socket replay costs one unit per 50 messages it may return (at least one). Default 100."""
    userInboxReadsPerSecond: int
    """Inbox read by one user on the realtime edge (GET /v1/inbox and the replays of inbox subscriptions), in units per second: one unit per 50 notifications a page may return (at least one). Default 20."""
    userModerationsPerSecond: int
    """Removals, bans and unbans by one moderator on the realtime edge (HTTP and socket frames together), per second. Default 20."""
    userPublishesPerSecond: int
    """Publishes by one user, HTTP and socket together, per second. A publish with mentions costs 1 + one unit per started 10 mentions. Default 50."""
    userReactionsPerSecond: int
    """Reactions added or removed by one user on the realtime edge (HTTP and socket frames together), per second. Default 20."""
    userRetractsPerSecond: int
    """Retractions by one user on the realtime edge (HTTP and socket frames together), per second. Default 50."""
    userRosterReadsPerSecond: int
    """Roster and occupancy reads by one user on the realtime edge, per second. Default 20."""
    userSocketOpensPerSecond: int
    """Sockets one user opens (channel, inbox and /v1/connect), per second. Default 30."""


class Limits(TypedDict):
    """The limits in force: the deployed overrides over the defaults."""

    anonymousMintsPerIpPerSecond: int
    """Anonymous tokens minted with publishable keys from one client IP, per second. Default 10."""
    anonymousMintsPerKeyPerSecond: int
    """Anonymous tokens minted with one publishable key, per second. Default 100."""
    environmentEdgeReadsPerSecond: int
    """Units of the six per-user realtime-edge limits above taken by every user of the environment together, per second. Default 20000."""
    environmentMessagesPerSecond: int
    """Messages published in the environment from every source, per second. Default 20000."""
    monthlyConnectionMinutes: Optional[int]
    """Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new connections are refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default)."""
    monthlyMessages: Optional[int]
    """Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md). Null or absent: unlimited (the default)."""
    notificationsPerUserPerMinute: int
    """Notifications stored for one user (mentions and POST /v1/notifications together), per fixed one-minute window; the rest are not stored. Default 120."""
    secretKeyRequestsPerSecond: int
    """Requests made with one secret key, per second. Default 10000."""
    socketsPerEnvironment: int
    """Sockets the environment holds open at a time. Default 50000."""
    socketsPerUser: int
    """Sockets one user holds open at a time (channel and inbox sockets). Default 100."""
    userHistoryReadsPerSecond: int
    """History read by one user on the realtime edge, in units per second: a page or socket replay costs one unit per 50 messages it may return (at least one). Default 100."""
    userInboxReadsPerSecond: int
    """Inbox read by one user on the realtime edge (GET /v1/inbox and the replays of inbox subscriptions), in units per second: one unit per 50 notifications a page may return (at least one). Default 20."""
    userModerationsPerSecond: int
    """Removals, bans and unbans by one moderator on the realtime edge (HTTP and socket frames together), per second. Default 20."""
    userPublishesPerSecond: int
    """Publishes by one user, HTTP and socket together, per second. A publish with mentions costs 1 + one unit per started 10 mentions. Default 50."""
    userReactionsPerSecond: int
    """Reactions added or removed by one user on the realtime edge (HTTP and socket frames together), per second. Default 20."""
    userRetractsPerSecond: int
    """Retractions by one user on the realtime edge (HTTP and socket frames together), per second. Default 50."""
    userRosterReadsPerSecond: int
    """Roster and occupancy reads by one user on the realtime edge, per second. Default 20."""
    userSocketOpensPerSecond: int
    """Sockets one user opens (channel, inbox and /v1/connect), per second. Default 30."""


class LogsToken(TypedDict):
    expiresAt: str
    socketUrl: Optional[str]
    """The logs socket of this environment on the realtime edge (`ws://` or `wss://`, without the token): open `socketUrl + "?token=" + token`. From REALTIME_PUBLIC_URL when the gateway has it, else the host name of this request with the realtime port; null when the request's Host header is unusable."""
    token: str


class Membership(TypedDict):
    channelId: str
    createdAt: str
    role: Literal["member", "moderator", "readonly"]
    """`member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge."""
    updatedAt: str
    userId: str


class MessageEnvelopeSender(TypedDict):
    anon: bool
    id: str


class _MessageEnvelopeRequired(TypedDict):
    content: Optional[Dict[str, Any]]
    """The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted."""
    ephemeral: bool
    id: str
    kind: Literal["user", "server", "system"]
    retracted: bool
    sender: MessageEnvelopeSender
    seq: int
    timestamp: int
    type: str


class MessageEnvelope(_MessageEnvelopeRequired, total=False):
    """A message as history, socket frames and webhooks show it."""

    mentions: List[str]
    reactions: ReactionSummary
    to: List[str]
    updatedAt: int
    """When the last edit committed (ms since the epoch); only on an edited message."""
    updatedBy: Optional[str]
    """Who made the last edit (null: the backend); only on an edited message."""
    version: int
    """The content's version, from 2 once edited; absent for a message never edited (version 1)."""


class MessageVersionsVersion(TypedDict):
    content: Dict[str, Any]
    updatedAt: Optional[int]
    """null for version 1 (its time is the message's `timestamp`)."""
    updatedBy: Optional[str]
    """Who made this version: the editor's user id; null for version 1 and backend edits."""
    version: int


class MessageVersions(TypedDict):
    versions: List[MessageVersionsVersion]
    """Oldest first; the last is the message's content now."""


class NamespaceAnonymous(TypedDict, total=False):
    publish: bool
    """Anonymous tokens may publish and retract. Default true."""
    subscribe: bool
    """Anonymous tokens may subscribe, read history and the roster. Default true."""


class _NamespaceRequired(TypedDict):
    prefix: str
    """Channels whose id starts with this belong to the namespace; the longest matching prefix wins."""


class Namespace(_NamespaceRequired, total=False):
    """Settings of every channel whose id starts with `prefix` (docs/permissions.md)."""

    access: Literal["open", "members"]
    """Access of the namespace's channels that have no access of their own (over `channels.access`). Omitted: `channels.access`."""
    anonymous: NamespaceAnonymous
    delta: bool
    """Subscribers may ask for delta-compressed messages (`delta: "fossil"` on `subscribe`, `?delta=fossil` on the channel socket and the event stream): each message as a fossil delta against the previous one they received. Where it is not on, such a subscribe is refused with `forbidden`. Applies to subscriptions made after the deploy. Default false."""
    history: bool
    """false: history is refused to user tokens (403 `forbidden`). Default true."""
    joinLeave: bool
    """Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the channels' subscribers. Needs `presence`. Omitted: `channels.joinLeave`."""
    maxContentBytes: int
    """Largest `content`, in UTF-8 bytes of its JSON text as sent (413 `payload_too_large` above it). Omitted: 65536."""
    persist: bool
    """false: every message is ephemeral (202, no history, no webhook, no seq). Default true."""
    presence: bool
    """Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, occupancy is refused (403 `forbidden`) and no presence frames are sent. Omitted: `channels.presence`."""
    presenceWebhooks: bool
    """Send the `presence.entered` and `presence.left` webhook events of the namespace's channels (to the endpoints whose `eventTypes` name them; docs/webhook-events.md). Needs `presence`. Omitted: false."""
    retentionDays: int
    """Messages older than this many days are deleted (a job every 15 minutes). Omitted: kept."""


class NamespaceInputAnonymous(TypedDict, total=False):
    publish: bool
    """Anonymous tokens may publish and retract. Default true."""
    subscribe: bool
    """Anonymous tokens may subscribe, read history and the roster. Default true."""


class _NamespaceInputRequired(TypedDict):
    prefix: str
    """Channels whose id starts with this belong to the namespace; the longest matching prefix wins."""


class NamespaceInput(_NamespaceInputRequired, total=False):
    """Settings of every channel whose id starts with `prefix` (docs/permissions.md)."""

    access: Literal["open", "members"]
    """Access of the namespace's channels that have no access of their own (over `channels.access`). Omitted: `channels.access`."""
    anonymous: NamespaceInputAnonymous
    delta: bool
    """Subscribers may ask for delta-compressed messages (`delta: "fossil"` on `subscribe`, `?delta=fossil` on the channel socket and the event stream): each message as a fossil delta against the previous one they received. Where it is not on, such a subscribe is refused with `forbidden`. Applies to subscriptions made after the deploy. Default false."""
    history: bool
    """false: history is refused to user tokens (403 `forbidden`). Default true."""
    joinLeave: bool
    """Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the channels' subscribers. Needs `presence`. Omitted: `channels.joinLeave`."""
    maxContentBytes: int
    """Largest `content`, in UTF-8 bytes of its JSON text as sent (413 `payload_too_large` above it). Omitted: 65536."""
    persist: bool
    """false: every message is ephemeral (202, no history, no webhook, no seq). Default true."""
    presence: bool
    """Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, occupancy is refused (403 `forbidden`) and no presence frames are sent. Omitted: `channels.presence`."""
    presenceWebhooks: bool
    """Send the `presence.entered` and `presence.left` webhook events of the namespace's channels (to the endpoints whose `eventTypes` name them; docs/webhook-events.md). Needs `presence`. Omitted: false."""
    retentionDays: int
    """Messages older than this many days are deleted (a job every 15 minutes). Omitted: kept."""


class _NotificationsCreatedRequired(TypedDict):
    ids: List[str]
    """One notification id per distinct user id that was sent one, in the order of first appearance (the users in `dropped` have none)."""


class NotificationsCreated(_NotificationsCreatedRequired, total=False):
    dropped: List[str]
    """Present only when some users got nothing: they already had `notificationsPerUserPerMinute` notifications this minute (docs/limits.md)."""


class Occupancy(TypedDict):
    channelId: str
    connections: int
    """Live subscriptions of the channel (channel sockets and `/v1/connect` subscriptions) on every gateway."""
    users: int
    """Distinct users among them."""


class PublishedMessage(TypedDict):
    id: str
    seq: int
    timestamp: int


class QuotaPeriod(TypedDict):
    resetsAt: str
    """The first instant of the next month: every count starts again from 0."""
    start: str
    """The first instant of this calendar month (UTC)."""


class QuotaQuotasConnectionMinutes(TypedDict):
    """`limits.monthlyConnectionMinutes`: minutes of realtime connections, summed over every socket (flushed by each gateway every QUOTA_FLUSH_MS)."""

    limit: Optional[int]
    """The monthly limit in whole minutes; null: unlimited."""
    remaining: Optional[int]
    """limit − used, never below 0; null when unlimited."""
    used: int
    """Used this month, in whole minutes."""


class QuotaQuotasMessages(TypedDict):
    """`limits.monthlyMessages`: messages stored (publishes on every route and edits)."""

    limit: Optional[int]
    """The monthly limit in messages; null: unlimited."""
    remaining: Optional[int]
    """limit − used, never below 0; null when unlimited."""
    used: int
    """Used this month, in messages."""


class QuotaQuotas(TypedDict):
    connectionMinutes: QuotaQuotasConnectionMinutes
    """`limits.monthlyConnectionMinutes`: minutes of realtime connections, summed over every socket (flushed by each gateway every QUOTA_FLUSH_MS)."""
    messages: QuotaQuotasMessages
    """`limits.monthlyMessages`: messages stored (publishes on every route and edits)."""


class Quota(TypedDict):
    """The monthly quotas of the environment and what it used of them this month."""

    period: QuotaPeriod
    quotas: QuotaQuotas


class QuotaRefusal(TypedDict):
    """The monthly quota that is spent (only with the code `quota_exceeded`)."""

    limit: int
    quota: Literal["monthlyMessages", "monthlyConnectionMinutes"]
    resetsAt: str
    """The first instant of the next month (UTC): the quota starts again from 0."""
    used: int
    """Used this month when refused (messages, or whole connection-minutes)."""


class Reaction(TypedDict):
    id: str
    reacted: bool
    """Whether the user now has this reaction on the message."""
    seq: int
    type: str


class ReactionSummaryValue(TypedDict):
    clipped: bool
    """`users` does not name everyone (`count` is larger)."""
    count: int
    """Users who reacted with this type."""
    users: List[str]
    """The first 10 users who reacted with this type, oldest first."""


ReactionSummary = Dict[str, "ReactionSummaryValue"]
"""Reaction type → who reacted with it. Absent from a message nobody reacted to."""


class _RetractedMessageRequired(TypedDict):
    id: str
    retracted: Literal[True]
    seq: int


class RetractedMessage(_RetractedMessageRequired, total=False):
    eventSeq: int
    """The retraction's place in the channel's sequence; absent when the message was already retracted."""


class RevokedToken(TypedDict):
    jti: str
    rememberedUntil: str
    """When the revocation is forgotten: no token it refuses can be unexpired by then."""
    revoked: Literal[True]


class RevokedUserTokens(TypedDict):
    rememberedUntil: str
    userId: str
    validAfter: str
    """Tokens of the user issued before this moment (to the millisecond) are refused."""


class _RosterMemberRequired(TypedDict):
    online: bool
    role: Literal["member", "moderator", "readonly"]
    """`member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge."""
    userId: str


class RosterMember(_RosterMemberRequired, total=False):
    data: Any
    """The presence data the user entered with (`presence-enter`/`presence-update` on `/v1/connect`: any JSON, at most 1 KiB serialized; null when entered without). Absent when the user is offline or has not entered."""


class Roster(TypedDict):
    members: List[RosterMember]
    nextCursor: Optional[str]
    """Null on the last page; otherwise pass it as `cursor` for the next one."""


class RotatedSigningKeyRetiredItem(TypedDict):
    id: str
    retiresAt: str


class RotatedSigningKey(TypedDict):
    id: str
    retired: List[RotatedSigningKeyRetiredItem]


class SigningKey(TypedDict):
    createdAt: str
    id: str
    """The `kid` of the tokens it signs."""
    retiresAt: Optional[str]
    """null: not retired. In the future: in its grace period (verifies, no longer signs). Past: its tokens are refused."""
    state: Literal["active", "grace", "retired"]


class SigningKeyList(TypedDict):
    keys: List[SigningKey]


class StatsEntry(TypedDict):
    """One interval of an environment's usage; the meaning of each counter is in docs/stats.md."""

    apiRequestsControl: int
    apiRequestsRealtime: int
    bytesDelivered: int
    channelsActive: int
    """Over an hour, day or month: the highest of its minutes."""
    connectionMinutes: float
    """Connection-seconds / 60, 2 decimals."""
    connectionsAverage: float
    """Connection-seconds over the interval's seconds (the whole interval, the current one included), 2 decimals."""
    connectionsPeak: int
    """Over an hour, day or month: the highest of its minutes."""
    historyReads: int
    messagesDelivered: int
    messagesPublished: int
    """Messages published by every route: the sum of the three below."""
    messagesPublishedBatch: int
    messagesPublishedHttp: int
    messagesPublishedSocket: int
    notifications: int
    presenceEvents: int
    start: str
    """The interval's start, ISO 8601 UTC."""
    unit: Literal["minute", "hour", "day", "month"]
    webhookDeliveries: int
    webhookDropped: int
    webhookEvents: int
    webhookFailedAttempts: int


class StatsList(TypedDict):
    data: List[StatsEntry]
    """One entry per interval with usage, in `direction` order; an interval with none is left out."""


class TokenJwks(TypedDict):
    url: str


class TokenKey(TypedDict):
    alg: Literal["RS256", "ES256", "EdDSA"]
    createdAt: str
    jwk: Dict[str, Any]
    kid: str


class TokenKeyList(TypedDict):
    jwksUrl: Optional[str]
    keys: List[TokenKey]


class UserToken(TypedDict):
    expiresAt: str
    token: str
    userId: str


class _WebhookDeliveryRequired(TypedDict):
    attempts: int
    createdAt: str
    endpointId: Optional[str]
    """The endpoint (`ep_…`); null for the default one (the configuration's webhook URL)."""
    eventId: str
    eventType: Literal["message.published", "message.retracted", "message.updated", "message.reactions", "member.added", "member.removed", "member.banned", "member.unbanned", "channel.deleted", "channel.occupied", "channel.vacated", "channel.occupancy", "presence.entered", "presence.left", "user.messages_erased", "usage.threshold", "webhook.test", "endpoint.disabled", "delivery.dropped"]
    id: str
    status: Literal["pending", "delivered", "dropped", "cancelled"]
    """`pending`: waiting for its first attempt or a retry; `delivered`: a 2xx came back; `dropped`: the retries ran out (or the receiver answered 410); `cancelled`: its message was retracted (by its sender, a moderator or a user's erasure) or deleted with its channel before it was delivered: `lastError` is `message_retracted`, its stored body is redacted and it is never sent again (a manual retry or a recovery refuses or skips it). A delivered delivery of such a message stays `delivered`, its stored body redacted too."""
    updatedAt: str
    url: str


class WebhookDelivery(_WebhookDeliveryRequired, total=False):
    channelId: str
    """Absent for an event about no channel."""
    deliveredAt: str
    lastError: str
    """At most 1 KiB."""
    lastStatusCode: int
    nextAttemptAt: str
    """A pending delivery: when the next attempt is due."""


class _WebhookDeliveryDetailAttemptLogItemRequired(TypedDict):
    at: str
    durationMs: int


class WebhookDeliveryDetailAttemptLogItem(_WebhookDeliveryDetailAttemptLogItemRequired, total=False):
    error: str
    statusCode: int


class _WebhookDeliveryDetailRequired(TypedDict):
    attemptLog: List[WebhookDeliveryDetailAttemptLogItem]
    attempts: int
    createdAt: str
    endpointId: Optional[str]
    """The endpoint (`ep_…`); null for the default one (the configuration's webhook URL)."""
    eventId: str
    eventType: Literal["message.published", "message.retracted", "message.updated", "message.reactions", "member.added", "member.removed", "member.banned", "member.unbanned", "channel.deleted", "channel.occupied", "channel.vacated", "channel.occupancy", "presence.entered", "presence.left", "user.messages_erased", "usage.threshold", "webhook.test", "endpoint.disabled", "delivery.dropped"]
    id: str
    status: Literal["pending", "delivered", "dropped", "cancelled"]
    """`pending`: waiting for its first attempt or a retry; `delivered`: a 2xx came back; `dropped`: the retries ran out (or the receiver answered 410); `cancelled`: its message was retracted (by its sender, a moderator or a user's erasure) or deleted with its channel before it was delivered: `lastError` is `message_retracted`, its stored body is redacted and it is never sent again (a manual retry or a recovery refuses or skips it). A delivered delivery of such a message stays `delivered`, its stored body redacted too."""
    updatedAt: str
    url: str


class WebhookDeliveryDetail(_WebhookDeliveryDetailRequired, total=False):
    channelId: str
    """Absent for an event about no channel."""
    deliveredAt: str
    lastError: str
    """At most 1 KiB."""
    lastStatusCode: int
    nextAttemptAt: str
    """A pending delivery: when the next attempt is due."""


class WebhookDeliveryList(TypedDict):
    data: List[WebhookDelivery]
    nextCursor: Optional[str]
    """Null on the last page."""


class _WebhookEndpointRequired(TypedDict):
    channels: Optional[List[str]]
    """null: every channel."""
    createdAt: str
    description: str
    disabled: bool
    eventTypes: Optional[List[str]]
    """null: every event type but the `optIn` ones."""
    id: str
    """`ep_…`"""
    rateLimitPerSecond: Optional[int]
    updatedAt: str
    url: str


class WebhookEndpoint(_WebhookEndpointRequired, total=False):
    disabledAt: str
    disabledReason: Literal["manual", "failing"]
    """`failing`: disabled after failing for WEBHOOK_DISABLE_AFTER."""
    failingSince: str
    """When its attempts started failing (none has succeeded since)."""


class WebhookEndpointList(TypedDict):
    data: List[WebhookEndpoint]
    nextCursor: Optional[str]
    """Null on the last page."""


class WebhookEventTypeListDataItem(TypedDict):
    description: str
    example: Any
    """An example `data`."""
    name: str
    optIn: bool
    """Sent only to endpoints whose `eventTypes` name it: an endpoint without a type filter does not get it."""
    schema: Dict[str, Any]
    """JSON Schema of the event's `data`."""


class WebhookEventTypeList(TypedDict):
    data: List[WebhookEventTypeListDataItem]


class WebhookSecret(TypedDict):
    secret: str
    """`whsec_` + base64. `service-signature` is keyed with the whole string (UTF-8); the Standard Webhooks `webhook-signature` with the base64-decoded part after `whsec_`."""


class _WebhookTaskRequired(TypedDict):
    createdAt: str
    endpointId: str
    id: str
    """`wtk_…`"""
    kind: Literal["recover"]
    recovered: int
    """Dropped deliveries queued again so far."""
    since: str
    status: Literal["running", "completed", "failed"]
    until: Optional[str]


class WebhookTask(_WebhookTaskRequired, total=False):
    error: str
    finishedAt: str


class WebhookTaskAccepted(TypedDict):
    taskId: str


class WebhookTestEvent(TypedDict):
    deliveryId: str
    """The delivery in the ledger (`GET /v1/webhooks/deliveries/{deliveryId}`)."""
    eventType: str


class AddReactionBody(TypedDict):
    """Request body of `addReaction`."""

    type: str
    """A short reaction name or emoji, 1-32 characters without spaces, e.g. "thumbsup" or "👍"."""
    userId: str
    """Who reacts."""


AddReactionResponse = Reaction


class BanFromChannelBody(TypedDict, total=False):
    """Request body of `banFromChannel`."""

    expiresAt: str
    """ISO 8601, in the future; without it the ban lasts until removed."""
    reason: str
    """Shown to the user as the `reason` of 403 `banned`."""


BanFromChannelResponse = Ban


class BanFromEnvironmentBody(TypedDict, total=False):
    """Request body of `banFromEnvironment`."""

    expiresAt: str
    """ISO 8601, in the future; without it the ban lasts until removed."""
    reason: str
    """Shown to the user as the `reason` of 403 `banned`."""


BanFromEnvironmentResponse = Ban


class _CreateWebhookEndpointBodyRequired(TypedDict):
    url: str
    """Checked as the configuration's webhook URL is (422 `invalid_webhook_url`)."""


class CreateWebhookEndpointBody(_CreateWebhookEndpointBodyRequired, total=False):
    """Request body of `createWebhookEndpoint`."""

    channels: Optional[List[str]]
    """Only events of channels matching one of these patterns (an exact id, `prefix*` or `*`; at most 100). Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel."""
    description: str
    disabled: bool
    """Create it disabled (it gets nothing until enabled)."""
    eventTypes: Optional[List[Literal["message.published", "message.retracted", "message.updated", "message.reactions", "member.added", "member.removed", "member.banned", "member.unbanned", "channel.deleted", "channel.occupied", "channel.vacated", "channel.occupancy", "presence.entered", "presence.left", "user.messages_erased", "usage.threshold", "webhook.test", "endpoint.disabled", "delivery.dropped"]]]
    """Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named."""
    rateLimitPerSecond: Optional[int]
    """At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own."""


CreateWebhookEndpointResponse = CreatedWebhookEndpoint


DeleteChannelResponse = Union["DeletedChannel", "ErasureJob"]


DeployConfigBody = DeployConfigInput
"""Request body of `deployConfig`."""


DeployConfigResponse = ConfigDeployment


class _EditMessageBodyRequired(TypedDict):
    content: Dict[str, Any]
    """The new content: a JSON object, at most 64 KiB as sent, kept exactly as sent like a publish's."""


class EditMessageBody(_EditMessageBodyRequired, total=False):
    """Request body of `editMessage`."""

    userId: str
    """Recorded as `updatedBy`; omitted: null (the backend edited)."""


EditMessageResponse = EditedMessage


EraseUserMessagesResponse = ErasureJob


GetChannelBanResponse = Ban


GetConfigResponse = ConfigDeployment


GetDeliveryResponse = WebhookDeliveryDetail


GetEnvironmentBanResponse = Ban


GetErasureJobResponse = ErasureJob


GetOccupancyResponse = Occupancy


GetQuotaResponse = Quota


class GetRosterQuery(TypedDict, total=False):
    """Query parameters of `getRoster`."""

    limit: int
    """Entries per page. Default and maximum 1000."""
    cursor: str
    """`nextCursor` of the previous page (opaque)."""


GetRosterResponse = Roster


class GetStatsQuery(TypedDict, total=False):
    """Query parameters of `getStats`."""

    unit: Literal["minute", "hour", "day", "month"]
    """The interval of each entry (UTC; a month is a calendar month). Default `minute`."""
    start: str
    """Epoch milliseconds or ISO 8601. Intervals that start at or after it. Default: `end` less `limit` units."""
    end: str
    """Epoch milliseconds or ISO 8601. Intervals that start at or before it. Default: now."""
    direction: Literal["forwards", "backwards"]
    """`backwards` (default): newest first; `forwards`: oldest first."""
    limit: int
    """Entries at most. Default 100, maximum 1000."""


GetStatsResponse = StatsList


GetWebhookEndpointResponse = WebhookEndpoint


GetWebhookEndpointSecretResponse = WebhookSecret


GetWebhookSecretResponse = WebhookSecret


GetWebhookTaskResponse = WebhookTask


class ListDeliveriesQuery(TypedDict, total=False):
    """Query parameters of `listDeliveries`."""

    status: Literal["pending", "delivered", "dropped", "cancelled"]
    """Only deliveries in this state."""
    endpointId: str
    """Only deliveries to this endpoint; `default` for the configuration's webhook URL."""
    limit: int
    """Default 50, maximum 500."""
    cursor: str
    """`nextCursor` of the previous page (opaque)."""


ListDeliveriesResponse = WebhookDeliveryList


class ListMessagesQuery(TypedDict, total=False):
    """Query parameters of `listMessages`."""

    limit: int
    """Default 50, max 500."""
    before: int
    """Exclusive upper seq bound."""
    after: int
    """Exclusive lower seq bound; with `after` the page starts just after it."""


ListMessagesResponse = History


ListMessageVersionsResponse = MessageVersions


ListSigningKeysResponse = SigningKeyList


ListTokenKeysResponse = TokenKeyList


class ListWebhookEndpointsQuery(TypedDict, total=False):
    """Query parameters of `listWebhookEndpoints`."""

    limit: int
    """Default 50, maximum 100."""
    cursor: str
    """`nextCursor` of the previous page (opaque)."""


ListWebhookEndpointsResponse = WebhookEndpointList


ListWebhookEventTypesResponse = WebhookEventTypeList


class MintAnonymousTokenBody(TypedDict, total=False):
    """Request body of `mintAnonymousToken`."""

    capabilities: CapabilitiesInput
    ttlSeconds: int


MintAnonymousTokenResponse = UserToken


class MintLogsTokenBody(TypedDict, total=False):
    """Request body of `mintLogsToken`."""

    ttlSeconds: int
    """60-3600, default 600."""


MintLogsTokenResponse = LogsToken


class _MintTokenBodyRequired(TypedDict):
    userId: str


class MintTokenBody(_MintTokenBodyRequired, total=False):
    """Request body of `mintToken`."""

    capabilities: CapabilitiesInput
    claims: Dict[str, Any]
    """Echoed to the user as the `ext` claim."""
    ttlSeconds: int


MintTokenResponse = UserToken


PatchConfigBody = ConfigPatchInput
"""Request body of `patchConfig`."""


PatchConfigResponse = ConfigDeployment


class _PublishBatchBodyMessageRequired(TypedDict):
    channelId: str
    """The channel this message goes to."""
    content: Dict[str, Any]
    """A JSON object, at most 64 KiB as sent (the UTF-8 bytes of its JSON text, spacing included; larger: 413 payload_too_large). Its text is kept exactly as sent (key order, spacing, escapes) on socket frames, in history and in webhook bodies."""


class PublishBatchBodyMessage(_PublishBatchBodyMessageRequired, total=False):
    ephemeral: bool
    """Fan out to sockets only: no history, no webhook, no seq advance."""
    idempotencyKey: str
    """The same key on the same channel within 24 h returns the first result and creates nothing. Ignored for ephemeral messages."""
    mentions: List[str]
    """Each mentioned user who may read the message gets an inbox notification of type "mention": decided when the message is stored, by the channel's access, membership and bans (and `to`, when given). Other ids are dropped silently, and so are notifications past the recipient's `notificationsPerUserPerMinute` (docs/limits.md); the message is published either way and the answer does not say who was notified."""
    senderId: str
    """Sender shown to clients; default "server"."""
    to: List[str]
    """Only these users and the sender receive it on sockets and see it in history."""
    type: str
    """Application-defined message type, 1-64 chars; default "message"."""


class PublishBatchBody(TypedDict):
    """Request body of `publishBatch`."""

    messages: List[PublishBatchBodyMessage]


PublishBatchResponse = BatchPublishResults


class _PublishMessageBodyRequired(TypedDict):
    content: Dict[str, Any]
    """A JSON object, at most 64 KiB as sent (the UTF-8 bytes of its JSON text, spacing included; larger: 413 payload_too_large). Its text is kept exactly as sent (key order, spacing, escapes) on socket frames, in history and in webhook bodies."""


class PublishMessageBody(_PublishMessageBodyRequired, total=False):
    """Request body of `publishMessage`."""

    ephemeral: bool
    """Fan out to sockets only: no history, no webhook, no seq advance."""
    idempotencyKey: str
    """The same key on the same channel within 24 h returns the first result and creates nothing. Ignored for ephemeral messages."""
    mentions: List[str]
    """Each mentioned user who may read the message gets an inbox notification of type "mention": decided when the message is stored, by the channel's access, membership and bans (and `to`, when given). Other ids are dropped silently, and so are notifications past the recipient's `notificationsPerUserPerMinute` (docs/limits.md); the message is published either way and the answer does not say who was notified."""
    senderId: str
    """Sender shown to clients; default "server"."""
    to: List[str]
    """Only these users and the sender receive it on sockets and see it in history."""
    type: str
    """Application-defined message type, 1-64 chars; default "message"."""


PublishMessageResponse = Union["PublishedMessage", "EphemeralMessage"]


class PutMemberBody(TypedDict, total=False):
    """Request body of `putMember`."""

    role: Literal["member", "moderator", "readonly"]
    """Defaults to `member`; a PUT replaces the role."""


PutMemberResponse = Membership


class PutTokenJwksBody(TypedDict):
    """Request body of `putTokenJwks`."""

    url: str


PutTokenJwksResponse = TokenJwks


class PutTokenKeyBody(TypedDict):
    """Request body of `putTokenKey`."""

    alg: Literal["RS256", "ES256", "EdDSA"]
    jwk: Dict[str, Any]
    """The public key as a JWK (RSA ≥ 2048 bits for RS256, EC P-256 for ES256, OKP Ed25519 for EdDSA). A private key is refused."""


PutTokenKeyResponse = TokenKey


class _RecoverWebhookEndpointBodyRequired(TypedDict):
    since: str
    """Re-send the deliveries dropped that were created at or after this time…"""


class RecoverWebhookEndpointBody(_RecoverWebhookEndpointBodyRequired, total=False):
    """Request body of `recoverWebhookEndpoint`."""

    until: str
    """…and before this one (default: now)."""


RecoverWebhookEndpointResponse = WebhookTaskAccepted


class RemoveReactionQuery(TypedDict):
    """Query parameters of `removeReaction`."""

    userId: str
    """Whose reaction to remove."""


RemoveReactionResponse = Reaction


class RetractMessageBody(TypedDict, total=False):
    """Request body of `retractMessage`."""

    reason: str
    """Sent on the socket `retract` frame only."""


RetractMessageResponse = RetractedMessage


RetryDeliveryResponse = WebhookDelivery


class RevokeTokenBody(TypedDict):
    """Request body of `revokeToken`."""

    jti: str
    """The token's `jti` claim."""


RevokeTokenResponse = RevokedToken


RevokeUserTokensResponse = RevokedUserTokens


class RotateSigningKeyBody(TypedDict, total=False):
    """Request body of `rotateSigningKey`."""

    graceSeconds: int
    """How long tokens signed by the keys rotated out still verify (default 86400: 24 h; 0: refused at once)."""


RotateSigningKeyResponse = RotatedSigningKey


RotateWebhookEndpointSecretResponse = WebhookSecret


RotateWebhookSecretResponse = WebhookSecret


class _SendNotificationsBodyRequired(TypedDict):
    payload: Dict[str, Any]
    """A JSON object, at most 64 KiB serialized (413 otherwise)."""
    userIds: List[str]
    """1-1000 user ids. Users need not have connected before; repeated ids are sent once."""


class SendNotificationsBody(_SendNotificationsBodyRequired, total=False):
    """Request body of `sendNotifications`."""

    type: str
    """Defaults to `notification`; `mention` is used by channel mentions."""


SendNotificationsResponse = NotificationsCreated


class SetChannelAccessBody(TypedDict):
    """Request body of `setChannelAccess`."""

    access: Literal["open", "members"]


SetChannelAccessResponse = ChannelSettings


class TestWebhookEndpointBody(TypedDict, total=False):
    """Request body of `testWebhookEndpoint`."""

    eventType: Literal["message.published", "message.retracted", "message.updated", "message.reactions", "member.added", "member.removed", "member.banned", "member.unbanned", "channel.deleted", "channel.occupied", "channel.vacated", "channel.occupancy", "presence.entered", "presence.left", "user.messages_erased", "usage.threshold", "webhook.test", "endpoint.disabled", "delivery.dropped"]
    """Send the catalogue's example of this type instead of `webhook.test`."""


TestWebhookEndpointResponse = WebhookTestEvent


class UpdateWebhookEndpointBody(TypedDict, total=False):
    """Request body of `updateWebhookEndpoint`."""

    channels: Optional[List[str]]
    """Only events of channels matching one of these patterns (an exact id, `prefix*` or `*`; at most 100). Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel."""
    description: str
    disabled: bool
    """Create it disabled (it gets nothing until enabled)."""
    eventTypes: Optional[List[Literal["message.published", "message.retracted", "message.updated", "message.reactions", "member.added", "member.removed", "member.banned", "member.unbanned", "channel.deleted", "channel.occupied", "channel.vacated", "channel.occupancy", "presence.entered", "presence.left", "user.messages_erased", "usage.threshold", "webhook.test", "endpoint.disabled", "delivery.dropped"]]]
    """Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named."""
    rateLimitPerSecond: Optional[int]
    """At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own."""
    url: str
    """Checked as the configuration's webhook URL is (422 `invalid_webhook_url`)."""


UpdateWebhookEndpointResponse = WebhookEndpoint


class ChannelDeletedEventData(TypedDict):
    channelId: str
    messages: int
    """Messages deleted."""


class ChannelDeletedEvent(TypedDict):
    """A channel was deleted with its history, membership and bans (DELETE /v1/channels/{channelId} finished). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: ChannelDeletedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["channel.deleted"]


class ChannelOccupancyEventData(TypedDict):
    channelId: str
    connections: int
    users: int


class ChannelOccupancyEvent(TypedDict):
    """The subscriptions of an occupied channel and the distinct users among them, over every gateway: at most once per channel every PRESENCE_OCCUPANCY_WEBHOOK_MS (15 s by default), only when a count changed since the last one. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: ChannelOccupancyEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["channel.occupancy"]


class ChannelOccupiedEventData(TypedDict):
    channelId: str


class ChannelOccupiedEvent(TypedDict):
    """A channel got its first subscriber: nobody held a subscription of it on any gateway, now someone does. Once per cluster; a channel that is vacated and occupied again within one second on one gateway sends neither. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: ChannelOccupiedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["channel.occupied"]


class ChannelVacatedEventData(TypedDict):
    channelId: str


class ChannelVacatedEvent(TypedDict):
    """A channel lost its last subscriber on every gateway (they left, or the gateway holding them stopped refreshing presence and its records expired after PRESENCE_TTL_MS). Once per cluster, after the `channel.occupied` it ends. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: ChannelVacatedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["channel.vacated"]


class DeliveryDroppedEventData(TypedDict):
    attempts: int
    deliveryId: str
    endpointId: Optional[str]
    """null for the default endpoint (the configuration's webhook URL)."""
    eventId: str
    eventType: str
    lastError: Optional[str]


class DeliveryDroppedEvent(TypedDict):
    """Operational: a delivery was dropped after its last retry. Sent to the environment's other endpoints that take it; a dropped operational event reports nothing further. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    data: DeliveryDroppedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["delivery.dropped"]


class EndpointDisabledEventData(TypedDict):
    disabledAt: str
    endpointId: str
    failingSince: str
    url: str
    """The disabled endpoint's URL, redacted: query values and userinfo masked (`?token=***`)."""


class EndpointDisabledEvent(TypedDict):
    """Operational: an endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER was disabled. Sent to the environment's other endpoints that take it. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    data: EndpointDisabledEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["endpoint.disabled"]


class MemberAddedEventData(TypedDict):
    channelId: str
    role: Literal["member", "moderator", "readonly"]
    """`member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge."""
    userId: str


class MemberAddedEvent(TypedDict):
    """A user became a member of a channel, or their role changed. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: MemberAddedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["member.added"]


class MemberBannedEventData(TypedDict):
    channelId: Optional[str]
    """null for an environment-wide ban."""
    expiresAt: Optional[str]
    reason: Optional[str]
    userId: str


class _MemberBannedEventRequired(TypedDict):
    data: MemberBannedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["member.banned"]


class MemberBannedEvent(_MemberBannedEventRequired, total=False):
    """A user was banned from a channel, or from the whole environment (`channelId` null). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""


class MemberRemovedEventData(TypedDict):
    channelId: str
    role: Literal["member", "moderator", "readonly"]
    """`member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); `moderator` also retracts any message of the channel and removes and bans its members from the realtime edge."""
    userId: str


class MemberRemovedEvent(TypedDict):
    """A user stopped being a member of a channel (removed by the backend or a moderator). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: MemberRemovedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["member.removed"]


class MemberUnbannedEventData(TypedDict):
    channelId: Optional[str]
    """null for an environment-wide ban."""
    expiresAt: Optional[str]
    reason: Optional[str]
    userId: str


class _MemberUnbannedEventRequired(TypedDict):
    data: MemberUnbannedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["member.unbanned"]


class MemberUnbannedEvent(_MemberUnbannedEventRequired, total=False):
    """A ban was lifted before it expired. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""


class MessagePublishedEventDataReactionsValue(TypedDict):
    clipped: bool
    """`users` does not name everyone (`count` is larger)."""
    count: int
    """Users who reacted with this type."""
    users: List[str]
    """The first 10 users who reacted with this type, oldest first."""


class MessagePublishedEventDataSender(TypedDict):
    anon: bool
    id: str


class _MessagePublishedEventDataRequired(TypedDict):
    content: Optional[Dict[str, Any]]
    """The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted."""
    ephemeral: bool
    id: str
    kind: Literal["user", "server", "system"]
    retracted: bool
    sender: MessagePublishedEventDataSender
    seq: int
    timestamp: int
    type: str


class MessagePublishedEventData(_MessagePublishedEventDataRequired, total=False):
    """A message as history, socket frames and webhooks show it."""

    mentions: List[str]
    reactions: Dict[str, MessagePublishedEventDataReactionsValue]
    """Reaction type → who reacted with it. Absent from a message nobody reacted to."""
    to: List[str]
    updatedAt: int
    """When the last edit committed (ms since the epoch); only on an edited message."""
    updatedBy: Optional[str]
    """Who made the last edit (null: the backend); only on an edited message."""
    version: int
    """The content's version, from 2 once edited; absent for a message never edited (version 1)."""


class MessagePublishedEvent(TypedDict):
    """A message was persisted on a channel (ephemeral messages are not). `data` is the message envelope. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: MessagePublishedEventData
    """A message as history, socket frames and webhooks show it."""
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["message.published"]


class MessageReactionsEventDataReactionsValue(TypedDict):
    clipped: bool
    """`users` does not name everyone (`count` is larger)."""
    count: int
    """Users who reacted with this type."""
    users: List[str]
    """The first 10 users who reacted with this type, oldest first."""


class MessageReactionsEventData(TypedDict):
    id: str
    """The message id."""
    reactions: Dict[str, MessageReactionsEventDataReactionsValue]
    """Reaction type → count and first users; `{}` once the last reaction is removed."""
    seq: int
    """The message's seq."""


class MessageReactionsEvent(TypedDict):
    """A message's reactions changed: `data` is its summary now, at most one event per message every 250 ms however many reactions arrive (coalesced). Sent to webhook endpoints only (not to the configuration's URL). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: MessageReactionsEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["message.reactions"]


class MessageRetractedEventDataReactionsValue(TypedDict):
    clipped: bool
    """`users` does not name everyone (`count` is larger)."""
    count: int
    """Users who reacted with this type."""
    users: List[str]
    """The first 10 users who reacted with this type, oldest first."""


class MessageRetractedEventDataSender(TypedDict):
    anon: bool
    id: str


class _MessageRetractedEventDataRequired(TypedDict):
    content: Optional[Dict[str, Any]]
    """The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted."""
    ephemeral: bool
    id: str
    kind: Literal["user", "server", "system"]
    retracted: bool
    sender: MessageRetractedEventDataSender
    seq: int
    timestamp: int
    type: str


class MessageRetractedEventData(_MessageRetractedEventDataRequired, total=False):
    """A message as history, socket frames and webhooks show it."""

    mentions: List[str]
    reactions: Dict[str, MessageRetractedEventDataReactionsValue]
    """Reaction type → who reacted with it. Absent from a message nobody reacted to."""
    to: List[str]
    updatedAt: int
    """When the last edit committed (ms since the epoch); only on an edited message."""
    updatedBy: Optional[str]
    """Who made the last edit (null: the backend); only on an edited message."""
    version: int
    """The content's version, from 2 once edited; absent for a message never edited (version 1)."""


class MessageRetractedEvent(TypedDict):
    """A message was retracted (by its sender, a moderator, the backend or an erasure). `data` is the tombstoned envelope. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: MessageRetractedEventData
    """A message as history, socket frames and webhooks show it."""
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["message.retracted"]


class MessageUpdatedEventDataReactionsValue(TypedDict):
    clipped: bool
    """`users` does not name everyone (`count` is larger)."""
    count: int
    """Users who reacted with this type."""
    users: List[str]
    """The first 10 users who reacted with this type, oldest first."""


class MessageUpdatedEventDataSender(TypedDict):
    anon: bool
    id: str


class _MessageUpdatedEventDataRequired(TypedDict):
    content: Optional[Dict[str, Any]]
    """The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted."""
    ephemeral: bool
    id: str
    kind: Literal["user", "server", "system"]
    retracted: bool
    sender: MessageUpdatedEventDataSender
    seq: int
    timestamp: int
    type: str


class MessageUpdatedEventData(_MessageUpdatedEventDataRequired, total=False):
    """A message as history, socket frames and webhooks show it."""

    mentions: List[str]
    reactions: Dict[str, MessageUpdatedEventDataReactionsValue]
    """Reaction type → who reacted with it. Absent from a message nobody reacted to."""
    to: List[str]
    updatedAt: int
    """When the last edit committed (ms since the epoch); only on an edited message."""
    updatedBy: Optional[str]
    """Who made the last edit (null: the backend); only on an edited message."""
    version: int
    """The content's version, from 2 once edited; absent for a message never edited (version 1)."""


class MessageUpdatedEvent(TypedDict):
    """A message was edited: `data` is the envelope with the new content, `version` (2 after the first edit), `updatedAt` and `updatedBy`. Sent to webhook endpoints only (not to the configuration's URL). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: MessageUpdatedEventData
    """A message as history, socket frames and webhooks show it."""
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["message.updated"]


class PresenceEnteredEventDataMember(TypedDict):
    data: Any
    """The presence data the user entered with (any JSON, at most 1 KiB serialized; `null` when entered without)."""
    userId: str


class PresenceEnteredEventData(TypedDict):
    channelId: str
    members: List[PresenceEnteredEventDataMember]
    """At most 50, sorted by userId; more in one interval go in further events."""


class PresenceEnteredEvent(TypedDict):
    """Users entered the channel's presence (`presence-enter`) with their data, gathered per channel per second. Only for channels whose namespace turns `presenceWebhooks` on. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: PresenceEnteredEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["presence.entered"]


class PresenceLeftEventDataMember(TypedDict):
    data: Any
    """The presence data the user entered with (any JSON, at most 1 KiB serialized; `null` when entered without)."""
    userId: str


class PresenceLeftEventData(TypedDict):
    channelId: str
    members: List[PresenceLeftEventDataMember]
    """At most 50, sorted by userId; more in one interval go in further events."""


class PresenceLeftEvent(TypedDict):
    """Users left the channel's presence (`presence-leave`, their subscription or connection ended, or their gateway stopped and its records expired), each with the data they had, gathered per channel per second. Only for channels whose namespace turns `presenceWebhooks` on. Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    channelId: str
    """The channel the event is about (absent for an environment-wide ban)."""
    data: PresenceLeftEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["presence.left"]


class UsageThresholdEventDataPeriod(TypedDict):
    resetsAt: str
    """The next month's first instant."""
    start: str
    """The month's first instant (UTC)."""


class UsageThresholdEventData(TypedDict):
    limit: int
    period: UsageThresholdEventDataPeriod
    quota: Literal["monthlyMessages", "monthlyConnectionMinutes"]
    threshold: Union[Literal[80], Literal[100]]
    used: int


class UsageThresholdEvent(TypedDict):
    """The environment used 80 % or 100 % of a monthly quota (`limits.monthlyMessages` or `limits.monthlyConnectionMinutes`, docs/quotas.md): once per environment, quota, threshold and calendar month (UTC), whatever the limit is changed to later in the month. `used` is the count when the threshold was seen (messages, or whole connection-minutes). Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    data: UsageThresholdEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["usage.threshold"]


class UserMessagesErasedEventData(TypedDict):
    erasureId: str
    retracted: int
    userId: str


class UserMessagesErasedEvent(TypedDict):
    """An erasure of a user's messages finished: every message they sent is retracted. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    data: UserMessagesErasedEventData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["user.messages_erased"]


class WebhookTestEventBodyData(TypedDict):
    endpointId: str
    message: str


class WebhookTestEventBody(TypedDict):
    """Sent by POST /v1/webhook-endpoints/{endpointId}/test to that endpoint only. Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried."""

    data: WebhookTestEventBodyData
    environmentId: str
    id: str
    """The event id (`webhook-id`)."""
    timestamp: int
    """Milliseconds since the epoch."""
    type: Literal["webhook.test"]


WebhookEvent = Union[
    ChannelDeletedEvent,
    ChannelOccupancyEvent,
    ChannelOccupiedEvent,
    ChannelVacatedEvent,
    DeliveryDroppedEvent,
    EndpointDisabledEvent,
    MemberAddedEvent,
    MemberBannedEvent,
    MemberRemovedEvent,
    MemberUnbannedEvent,
    MessagePublishedEvent,
    MessageReactionsEvent,
    MessageRetractedEvent,
    MessageUpdatedEvent,
    PresenceEnteredEvent,
    PresenceLeftEvent,
    UsageThresholdEvent,
    UserMessagesErasedEvent,
    WebhookTestEventBody,
]
"""The body of any webhook delivery; branch on its `type`."""

WEBHOOK_EVENT_TYPES: Tuple[str, ...] = (
    "channel.deleted",
    "channel.occupancy",
    "channel.occupied",
    "channel.vacated",
    "delivery.dropped",
    "endpoint.disabled",
    "member.added",
    "member.banned",
    "member.removed",
    "member.unbanned",
    "message.published",
    "message.reactions",
    "message.retracted",
    "message.updated",
    "presence.entered",
    "presence.left",
    "usage.threshold",
    "user.messages-erased",
    "webhook.test",
)
"""Every event type the service sends."""
