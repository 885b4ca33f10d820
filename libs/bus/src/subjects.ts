/**
 * Every NATS subject of a cluster, built in one place and prefixed with `NATS_PREFIX` so two
 * clusters can share one NATS. Customer-chosen ids (channels, users) may hold `.`, `*`, `>` or
 * other characters that are not subject-safe: they are base64url-encoded into one token.
 */

export const encodeToken = (value: string): string => Buffer.from(value, 'utf8').toString('base64url');
export const decodeToken = (token: string): string => Buffer.from(token, 'base64url').toString('utf8');

/** FNV-1a, 32 bit: stable across processes and releases, which the partition map relies on. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function partitionOf(environmentId: string, channelId: string, partitions: number): number {
  return fnv1a(`${environmentId}\u0000${channelId}`) % partitions;
}

/**
 * Webhook endpoints are owned by dispatchers per partition of environments: a fixed number, so
 * every channel-node and dispatcher of every version agrees on it without configuration.
 */
export const WEBHOOK_PARTITIONS = 16;

/** The webhook partition of an environment (its webhook URL is the endpoint its owner serves). */
export function webhookPartitionOf(environmentId: string): number {
  return fnv1a(environmentId) % WEBHOOK_PARTITIONS;
}

export function subjects(prefix: string) {
  return {
    /** Commands (publish, retract) for the owner of a partition; request/reply. */
    partition: (partition: number) => `${prefix}.part.${partition}`,
    /**
     * Bundles of several partitions' commands for one channel-node (node-bundle.ts); request/reply.
     * `node` is the node's name as it announces itself on `owners`.
     */
    node: (node: string) => `${prefix}.node.${encodeToken(node)}`,
    /** Channel-nodes announce the partitions they own here (`{node, partitions, ttlMs}`), on change and every few seconds. */
    owners: `${prefix}.owners`,
    /** A gateway that starts asks here; every channel-node announces at once. */
    ownersQuery: `${prefix}.owners.query`,
    /** Frames of one channel after commit (messages, retractions, ephemeral, presence). */
    channel: (environmentId: string, channelId: string) => `${prefix}.ch.${environmentId}.${encodeToken(channelId)}`,
    /** Events for one user's sockets on every gateway (notifications, kicks). */
    user: (environmentId: string, userId: string) => `${prefix}.user.${environmentId}.${encodeToken(userId)}`,
    /**
     * Control events for one environment's sockets on every gateway holding any (kicks on an
     * environment-wide ban, `{op:'kick', userId, code, reason}`): one subscription per
     * environment, where one per user would cost every gateway ~1 KB per connected user.
     */
    environmentControl: (environmentId: string) => `${prefix}.envctl.${environmentId}`,
    /** Control events for one channel's sockets on every gateway (kicks on ban or removal). */
    channelControl: (environmentId: string, channelId: string) => `${prefix}.chctl.${environmentId}.${encodeToken(channelId)}`,
    /**
     * Requests about one connection, by its id, to every gateway (presence entries over HTTP,
     * `{op, environmentId, userId, connectionId, channelId, data}`): the gateway holding it answers,
     * the others stay silent.
     */
    connectionRequests: `${prefix}.connreq`,
    /** Live log events of one environment. */
    logs: (environmentId: string) => `${prefix}.logs.${environmentId}`,
    /** Environments someone listens to the live log of (a JSON array of ids), from gateways (log-interest.ts). */
    logInterest: `${prefix}.loginterest`,
    /** A publisher that just started asks every gateway to announce its listened environments at once. */
    logInterestAsk: `${prefix}.loginterest.ask`,
    /** Cache invalidations (revoked keys, changed origins, deployed config) for every process. */
    invalidate: `${prefix}.invalidate`,
    /** Revoked user tokens (one token, or all of a user's): every gateway updates its cache and closes their sockets. */
    revocations: `${prefix}.revocations`,
    /** Membership, ban or channel-access changes of one environment: gateways drop cached access decisions. */
    accessChanged: `${prefix}.access`,
    /**
     * Notices of webhook deliveries just committed (a JSON array of `[delivery id, environment
     * id]` pairs), sent by the
     * channel-node after commit to the dispatcher that owns the deliveries' webhook partition
     * (webhookPartitionOf); a dispatcher forwards a retry job's deliveries the same way, as a
     * request. Only a wake-up: the rows are the truth, and a lost notice is caught by the
     * dispatchers' reconciler.
     */
    webhookNotices: (partition: number) => `${prefix}.hooks.new.${partition}`,
  };
}

export type Subjects = ReturnType<typeof subjects>;
