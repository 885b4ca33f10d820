import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';
import { ServerError, parseRetryAfter, expect, orNull } from './errors.ts';
import { webhookEndpointMethods, type WebhookEndpointMethods } from './endpoints.ts';
import { messageChangeMethods, type MessageChangeMethods } from './message-changes.ts';
import type {
  Ban,
  BanInput,
  ChannelAccess,
  ChannelSettings,
  ConfigDeployment,
  Quota,
  DeliveriesQuery,
  StatsQuery,
  StatsList,
  DeployConfigInput,
  PatchConfigInput,
  EphemeralMessage,
  History,
  HistoryQuery,
  RosterQuery,
  LogsToken,
  LogsTokenInput,
  Membership,
  MintAnonymousTokenInput,
  MintTokenInput,
  NotificationsCreated,
  NotifyInput,
  PublishInput,
  BatchPublishInput,
  BatchPublishResult,
  PublishedMessage,
  PutMemberInput,
  RetractInput,
  RetractedMessage,
  Roster,
  Occupancy,
  UserToken,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  RevokedToken,
  RevokedUserTokens,
  SigningKeyList,
  RotateSigningKeyInput,
  RotatedSigningKey,
  PutTokenKeyInput,
  TokenKey,
  TokenKeyList,
  ErasureJob,
  DeletedChannel,
} from './types.ts';

export interface RetryOptions {
  /** Further tries after the first one. Default 2. */
  retries?: number;
  /**
   * Longest wait before one retry, in milliseconds. A `retry-after` longer than this is not
   * waited for: the ServerError is thrown at once. Default 10 000.
   */
  maxDelayMs?: number;
}

export interface ServerClientOptions {
  /** Base URL of the control plane, e.g. `https://control.example.com` (no path). */
  url: string;
  /** The environment's secret key `sk_…`. Server-side only: never ship it to a browser. */
  secretKey: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: (input: Request) => Promise<Response>;
  /**
   * Opt-in retries of 429 `rate_limited` and 503 `unavailable`, after `retry-after` seconds
   * (or 0.5 s, 1 s, 2 s, … without one). `true` takes the defaults. While retries are on, a
   * persisted publish without an `idempotencyKey` is given a random one, so a retry after an
   * unknown outcome cannot publish twice.
   */
  retry?: boolean | RetryOptions;
  /** Extra headers sent with every request (e.g. tracing). */
  headers?: Record<string, string>;
}

/** A page of `history` is at most 500 messages; `limit` defaults to 50. */
export interface ServerClient extends WebhookEndpointMethods, MessageChangeMethods {
  /** Mints a user token (JWT) for the realtime edge. 403 `banned` for a user banned environment-wide. */
  mintToken(input: MintTokenInput): Promise<UserToken>;
  /** Mints an anonymous user token (`userId` `anon_…`, `anon: true`). */
  mintAnonymousToken(input?: MintAnonymousTokenInput): Promise<UserToken>;

  /**
   * Publishes a server message (kind "server") to a channel; resolves once committed (or, for
   * an ephemeral message, handed to the channel for fan-out).
   */
  publish(channelId: string, message: PublishInput & { ephemeral: true }): Promise<EphemeralMessage>;
  publish(channelId: string, message: PublishInput & { ephemeral?: false }): Promise<PublishedMessage>;
  publish(channelId: string, message: PublishInput): Promise<PublishedMessage | EphemeralMessage>;
  /**
   * Publishes up to 100 server messages, for one or many channels, in one request. Resolves with
   * one result per message, in order: the committed message, the ephemeral one, or `{error}` for
   * a message that was not published (the others are unaffected).
   */
  publishBatch(messages: BatchPublishInput): Promise<BatchPublishResult[]>;
  /** Retracts a message (tombstone; idempotent). 404 `not_found` for a message not in the channel. */
  retract(channelId: string, messageId: string, input?: RetractInput): Promise<RetractedMessage>;
  /** One page of a channel's persisted messages, ascending by seq. */
  history(channelId: string, query?: HistoryQuery): Promise<History>;

  /** Adds a member (role `member` unless given) or changes their role. */
  putMember(channelId: string, userId: string, input?: PutMemberInput): Promise<Membership>;
  /** Removes a member (idempotent) and closes their sockets on the channel. */
  removeMember(channelId: string, userId: string): Promise<void>;
  /** One page of the channel's members and who is online (`limit` default and maximum 1,000; `cursor`: the previous page's `nextCursor`). */
  roster(channelId: string, query?: RosterQuery): Promise<Roster>;
  /** Live subscriptions and distinct users of the channel over every gateway. 403 `forbidden` where its namespace turns presence off. */
  occupancy(channelId: string): Promise<Occupancy>;
  /** Sets a channel's access: `open` (any user of the environment) or `members`. */
  setChannelAccess(channelId: string, access: ChannelAccess): Promise<ChannelSettings>;

  /** Bans a user from one channel (upsert); their sockets there are closed. */
  ban(channelId: string, userId: string, input?: BanInput): Promise<Ban>;
  /** Lifts a channel ban (idempotent). */
  unban(channelId: string, userId: string): Promise<void>;
  /** The user's live ban on the channel, or null when there is none. */
  getBan(channelId: string, userId: string): Promise<Ban | null>;
  /** Bans a user from the whole environment: no new tokens, no channel, no inbox. */
  banFromEnvironment(userId: string, input?: BanInput): Promise<Ban>;
  /** Lifts an environment-wide ban (idempotent). */
  unbanFromEnvironment(userId: string): Promise<void>;
  /** The user's live environment-wide ban, or null when there is none. */
  getEnvironmentBan(userId: string): Promise<Ban | null>;

  /** Stores a notification in each user's inbox and delivers it to their open inbox sockets. */
  notify(input: NotifyInput): Promise<NotificationsCreated>;

  /** Deploys and activates a whole configuration (webhook URL, default access, limits, namespaces): what it omits takes its default. */
  deployConfig(config: DeployConfigInput): Promise<ConfigDeployment>;
  /** Merges a JSON Merge Patch into the active configuration and deploys the result: what it omits is kept, `null` removes. */
  patchConfig(patch: PatchConfigInput): Promise<ConfigDeployment>;
  /** The active configuration (`deploymentId: null` before the first deploy). */
  getConfig(): Promise<ConfigDeployment>;
  /** The monthly quotas (`limits.monthlyMessages`, `limits.monthlyConnectionMinutes`) and what was used of them this month. */
  quota(): Promise<Quota>;

  /** The webhook signing secret `whsec_…`. 404 `webhooks_not_configured` before a webhook is deployed. */
  webhookSecret(): Promise<string>;
  /** Rotates the signing secret and returns the new one; the old one still signs for 24 h. */
  rotateWebhookSecret(): Promise<string>;
  /** One page of the delivery ledger, newest first; pass `nextCursor` as `cursor` for the next. */
  deliveries(query?: DeliveriesQuery): Promise<WebhookDeliveryList>;
  /** Every delivery matching `query`, newest first, page after page. */
  allDeliveries(query?: Omit<DeliveriesQuery, 'cursor'>): AsyncIterable<WebhookDelivery>;
  /** One delivery with its attempt log. */
  delivery(deliveryId: string): Promise<WebhookDeliveryDetail>;
  /** Re-queues a `dropped` delivery for one immediate attempt. */
  retryDelivery(deliveryId: string): Promise<WebhookDelivery>;

  /** The environment's usage by `unit` (minute by default), one entry per interval with usage, newest first by default. */
  stats(query?: StatsQuery): Promise<StatsList>;

  /** A token for the live logs socket of the key's own environment. */
  mintLogsToken(environmentId: string, input?: LogsTokenInput): Promise<LogsToken>;

  /** Revokes one user token by its `jti`: refused everywhere at once, its sockets close with 4401. */
  revokeToken(jti: string): Promise<RevokedToken>;
  /** Revokes every token of a user minted before now; tokens minted afterwards work. */
  revokeUserTokens(userId: string): Promise<RevokedUserTokens>;
  /** The environment's token signing keys (no secrets). */
  signingKeys(): Promise<SigningKeyList>;
  /** Rotates the token signing key; the old one verifies for `graceSeconds` (default 24 h). */
  rotateSigningKey(input?: RotateSigningKeyInput): Promise<RotatedSigningKey>;
  /** The public keys (and JWKS URL) the environment's backend signs user tokens with. */
  tokenKeys(): Promise<TokenKeyList>;
  /** Registers (or replaces) a public key for tenant-signed user tokens. */
  putTokenKey(kid: string, input: PutTokenKeyInput): Promise<TokenKey>;
  /** Removes a registered public key; its tokens are refused at once. */
  deleteTokenKey(kid: string): Promise<void>;
  /** Sets the JWKS URL the gateways fetch tenant token keys from (webhook URL policy). */
  setTokenJwks(url: string): Promise<{ url: string }>;
  /** Removes the JWKS URL (idempotent). */
  removeTokenJwks(): Promise<void>;
  /** Starts retracting every message of a user; follow the job with `erasureJob`. */
  eraseUserMessages(userId: string): Promise<ErasureJob>;
  /** An erasure job's progress. */
  erasureJob(jobId: string): Promise<ErasureJob>;
  /**
   * Deletes a channel's messages, members and bans and closes its sockets. Resolves when the
   * deletion is done, following its job when the service answers 202 (a deletion outlasting its wait).
   */
  deleteChannel(channelId: string): Promise<DeletedChannel>;
  /** The typed openapi-fetch client underneath (authenticated, retrying as configured). */
  readonly api: Client<paths>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `fetch` that retries 429 and 503 answers as `options` say; never a spent monthly quota (429
 * `quota_exceeded`), which answers the same until the month ends.
 */
function retrying(fetch: (input: Request) => Promise<Response>, options: RetryOptions): (input: Request) => Promise<Response> {
  const retries = options.retries ?? 2;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // the body of a Request can be read once: every try but the last sends a copy
      const response = await fetch(attempt < retries ? request.clone() : request);
      if ((response.status !== 429 && response.status !== 503) || attempt >= retries) return response;
      if (response.headers.get('x-service-error') === 'quota_exceeded') return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const delayMs = retryAfter === undefined ? 500 * 2 ** attempt : retryAfter * 1000;
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delayMs);
    }
  };
}

/**
 * A client of the control plane for a tenant's backend. Every method resolves with the answer's
 * data or rejects with a ServerError (`status`, `code`, `reason`, `retryAfter`).
 */
export function createServerClient(options: ServerClientOptions): ServerClient {
  if (typeof options.url !== 'string' || !/^https?:\/\//.test(options.url)) {
    throw new TypeError('createServerClient: `url` must be the http(s) base URL of the control plane');
  }
  if (typeof options.secretKey !== 'string' || !options.secretKey.startsWith('sk_')) {
    throw new TypeError('createServerClient: `secretKey` must be a secret key (sk_…)');
  }
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retry = options.retry === true ? {} : options.retry || undefined;
  const api = createClient<paths>({
    baseUrl: options.url.replace(/\/+$/, ''),
    fetch: retry ? retrying(baseFetch, retry) : baseFetch,
    headers: { ...options.headers, authorization: `Bearer ${options.secretKey}` },
  });

  const channel = (channelId: string) => ({ path: { channelId } });
  const channelUser = (channelId: string, userId: string) => ({ path: { channelId, userId } });

  function publish(channelId: string, message: PublishInput): Promise<PublishedMessage | EphemeralMessage> {
    const body = retry && !message.ephemeral && message.idempotencyKey === undefined ? { ...message, idempotencyKey: globalThis.crypto.randomUUID() } : message;
    return expect(api.POST('/v1/channels/{channelId}/messages', { params: channel(channelId), body }));
  }

  async function publishBatch(messages: BatchPublishInput): Promise<BatchPublishResult[]> {
    // as for publish: with retries on, a persisted message gets a key, so a retried batch cannot publish twice
    const body = {
      messages: retry
        ? messages.map((m) => (!m.ephemeral && m.idempotencyKey === undefined ? { ...m, idempotencyKey: globalThis.crypto.randomUUID() } : m))
        : messages,
    };
    return (await expect(api.POST('/v1/messages/batch', { body }))).results;
  }

  async function* allDeliveries(query: Omit<DeliveriesQuery, 'cursor'> = {}): AsyncIterable<WebhookDelivery> {
    let cursor: string | undefined;
    do {
      const page = await expect(api.GET('/v1/webhooks/deliveries', { params: { query: { ...query, cursor } } }));
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  return {
    api,
    ...webhookEndpointMethods(api),
    ...messageChangeMethods(api),
    mintToken: (input) => expect(api.POST('/v1/tokens', { body: input })),
    mintAnonymousToken: (input) => expect(api.POST('/v1/tokens/anonymous', { body: input })),

    publish: publish as ServerClient['publish'],
    publishBatch,
    retract: (channelId, messageId, input) =>
      expect(api.DELETE('/v1/channels/{channelId}/messages/{messageId}', { params: { path: { channelId, messageId } }, body: input })),
    history: (channelId, query) => expect(api.GET('/v1/channels/{channelId}/history', { params: { ...channel(channelId), query } })),

    putMember: (channelId, userId, input) =>
      expect(api.PUT('/v1/channels/{channelId}/members/{userId}', { params: channelUser(channelId, userId), body: input })),
    removeMember: async (channelId, userId) => {
      await expect(api.DELETE('/v1/channels/{channelId}/members/{userId}', { params: channelUser(channelId, userId) }));
    },
    roster: (channelId, query) => expect(api.GET('/v1/channels/{channelId}/members', { params: { ...channel(channelId), query } })),
    occupancy: (channelId) => expect(api.GET('/v1/channels/{channelId}/occupancy', { params: channel(channelId) })),
    setChannelAccess: (channelId, access) => expect(api.PUT('/v1/channels/{channelId}', { params: channel(channelId), body: { access } })),

    ban: (channelId, userId, input) => expect(api.PUT('/v1/channels/{channelId}/bans/{userId}', { params: channelUser(channelId, userId), body: input })),
    unban: async (channelId, userId) => {
      await expect(api.DELETE('/v1/channels/{channelId}/bans/{userId}', { params: channelUser(channelId, userId) }));
    },
    getBan: (channelId, userId) => orNull(api.GET('/v1/channels/{channelId}/bans/{userId}', { params: channelUser(channelId, userId) })),
    banFromEnvironment: (userId, input) => expect(api.PUT('/v1/bans/{userId}', { params: { path: { userId } }, body: input })),
    unbanFromEnvironment: async (userId) => {
      await expect(api.DELETE('/v1/bans/{userId}', { params: { path: { userId } } }));
    },
    getEnvironmentBan: (userId) => orNull(api.GET('/v1/bans/{userId}', { params: { path: { userId } } })),

    notify: (input) => expect(api.POST('/v1/notifications', { body: input })),

    deployConfig: (config) => expect(api.PUT('/v1/config', { body: config })),
    patchConfig: (patch) => expect(api.PATCH('/v1/config', { body: patch })),
    getConfig: () => expect(api.GET('/v1/config')),
    quota: () => expect(api.GET('/v1/quota')),

    webhookSecret: async () => (await expect(api.GET('/v1/webhooks/secret'))).secret,
    rotateWebhookSecret: async () => (await expect(api.POST('/v1/webhooks/secret/rotate'))).secret,
    deliveries: (query) => expect(api.GET('/v1/webhooks/deliveries', { params: { query } })),
    allDeliveries,
    delivery: (deliveryId) => expect(api.GET('/v1/webhooks/deliveries/{deliveryId}', { params: { path: { deliveryId } } })),
    retryDelivery: (deliveryId) => expect(api.POST('/v1/webhooks/deliveries/{deliveryId}/retry', { params: { path: { deliveryId } } })),
    stats: ({ start, end, ...query } = {}) =>
      expect(
        api.GET('/v1/stats', {
          params: { query: { ...query, ...(start !== undefined && { start: statsTime(start) }), ...(end !== undefined && { end: statsTime(end) }) } },
        }),
      ),

    mintLogsToken: (environmentId, input) =>
      expect(api.POST('/v1/environments/{envId}/logs-token', { params: { path: { envId: environmentId } }, body: input })),

    revokeToken: (jti) => expect(api.POST('/v1/tokens/revoke', { body: { jti } })),
    revokeUserTokens: (userId) => expect(api.DELETE('/v1/users/{userId}/tokens', { params: { path: { userId } } })),
    signingKeys: () => expect(api.GET('/v1/signing-keys')),
    rotateSigningKey: (input) => expect(api.POST('/v1/signing-keys/rotate', { body: input })),
    tokenKeys: () => expect(api.GET('/v1/token-keys')),
    putTokenKey: (kid, input) => expect(api.PUT('/v1/token-keys/{kid}', { params: { path: { kid } }, body: input })),
    deleteTokenKey: async (kid) => {
      await expect(api.DELETE('/v1/token-keys/{kid}', { params: { path: { kid } } }));
    },
    setTokenJwks: (url) => expect(api.PUT('/v1/token-jwks', { body: { url } })),
    removeTokenJwks: async () => {
      await expect(api.DELETE('/v1/token-jwks'));
    },
    eraseUserMessages: (userId) => expect(api.DELETE('/v1/users/{userId}/messages', { params: { path: { userId } } })),
    erasureJob: (jobId) => expect(api.GET('/v1/erasures/{jobId}', { params: { path: { jobId } } })),
    deleteChannel: async (channelId) => {
      const answer = await expect(api.DELETE('/v1/channels/{channelId}', { params: channel(channelId) }));
      if (!('id' in answer)) return answer;
      // 202: the deletion outlasted the service's wait; its job is followed to its end
      return finishedChannelDeletion(channelId, answer, (jobId) => expect(api.GET('/v1/erasures/{jobId}', { params: { path: { jobId } } })));
    },
  };
}

/** How often `deleteChannel` reads a deletion's job when the service answered 202. */
const FOLLOW_DELETION_MS = 1_000;

/** Reads a channel deletion's job until it ends; answers as a 200 would have, or throws as a 404 / 503 would have. */
async function finishedChannelDeletion(channelId: string, job: ErasureJob, read: (jobId: string) => Promise<ErasureJob>): Promise<DeletedChannel> {
  while (job.status === 'running') {
    await sleep(FOLLOW_DELETION_MS);
    job = await read(job.id);
  }
  if (job.status === 'failed')
    throw new ServerError({ status: 503, code: 'unavailable', reason: `the channel deletion failed: ${job.lastError ?? 'gave up'}` });
  if (job.deleted === null) throw new ServerError({ status: 404, code: 'not_found', reason: 'no such channel' });
  return { channelId, deleted: job.deleted };
}

/** A time as GET /v1/stats takes it: a Date or a number as epoch milliseconds, a string as given. */
const statsTime = (time: string | number | Date) => (time instanceof Date ? String(time.getTime()) : String(time));
