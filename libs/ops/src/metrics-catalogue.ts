/**
 * The metrics each process exports besides prom-client's defaults (`process_*`, `nodejs_*`), as
 * data: every one is registered from its entry here (`counterSpec`, `gaugeSpec` and
 * `histogramSpec` give prom-client its name, help and label names), the table of
 * docs/operations.md ("Metrics") lists the same rows, and the tests compare the table and each
 * process's /internal/metrics with this list. A new metric is a new entry first.
 */

import type { ProcessKind } from './node-flags.ts';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricEntry {
  type: MetricType;
  /** The processes that register it. */
  processes: readonly ProcessKind[];
  /** Its own label names; every series also carries the registry's `node` and `kind`. */
  labels: readonly string[];
  help: string;
}

const EVERY_PROCESS: readonly ProcessKind[] = ['gateway', 'channel-node', 'dispatcher'];

export const METRICS = {
  // the gateway (and the dispatcher's own requests to channel owners)
  http_request_duration_seconds: {
    type: 'histogram',
    processes: ['gateway'],
    labels: ['host', 'route', 'status'],
    help: 'HTTP requests by host, route and status',
  },
  gateway_publish_seconds: {
    type: 'histogram',
    processes: ['gateway'],
    labels: ['sender', 'outcome'],
    help: 'Publishes from the moment the gateway sends them to the channel owner until the answer, by sender (server or user) and outcome (ok or error code)',
  },
  gateway_owner_requests_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: ['route'],
    help: "Bus requests to channel owners, by route: partition (one partition's subject) or node (a bundle of several partitions for one channel-node)",
  },
  gateway_owner_bundles_lingered_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: ['end'],
    help: "Bundles of commands for a channel-node held back for the following turns' commands, by how the wait ended: filled (OWNER_FILL commands) or timed_out",
  },
  dispatcher_owner_requests_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: ['route'],
    help: "Bus requests to channel owners (erasures' retractions), by route: partition (one partition's subject) or node (a bundle for one channel-node)",
  },
  gateway_open_sockets: {
    type: 'gauge',
    processes: ['gateway'],
    labels: ['kind'],
    help: 'Open sockets by kind (channel, inbox, logs, connect, events: an event stream of /v1/events)',
  },
  gateway_subscriptions: {
    type: 'gauge',
    processes: ['gateway'],
    labels: [],
    help: 'Live channel subscriptions of multiplexed connections (/v1/connect)',
  },
  gateway_socket_queued_bytes: {
    type: 'gauge',
    processes: ['gateway'],
    labels: [],
    help: 'Bytes queued to clients over all sockets (SOCKET_SEND_BUDGET bounds it)',
  },
  gateway_sockets_shed_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: [],
    help: 'Sockets closed as the slowest when the send budget was spent',
  },
  gateway_admission_running: {
    type: 'gauge',
    processes: ['gateway'],
    labels: [],
    help: 'Subscribes and replay page reads running (SUBSCRIBE_CONCURRENCY bounds it)',
  },
  gateway_admission_waiting: {
    type: 'gauge',
    processes: ['gateway'],
    labels: [],
    help: "Subscribes and replay page reads waiting for their environment's turn",
  },
  gateway_admission_refused_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: [],
    help: "Subscribes and replay page reads refused: their environment's queue was full",
  },
  gateway_kicked_sockets_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: ['scope'],
    help: 'Sockets closed with 4403 by a ban, removal or access change',
  },
  gateway_rate_limited_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: ['limit'],
    help: 'Requests, socket frames (publishes, retractions, moderation, replays) and socket opens refused by a rate limit or quota, by limit',
  },
  gateway_credential_cache_lookups_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: ['result'],
    help: 'Credential lookups served from the cache (hit) or loaded from Postgres (miss)',
  },
  gateway_notifications_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: [],
    help: 'Notifications stored by POST /v1/notifications',
  },
  gateway_notifications_dropped_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: [],
    help: 'Notifications of POST /v1/notifications not stored: the user was over notificationsPerUserPerMinute',
  },
  gateway_presence_entries: {
    type: 'gauge',
    processes: ['gateway'],
    labels: [],
    help: '(environment, channel, user) pairs this gateway holds in presence',
  },
  // the channel-node
  channel_partitions: {
    type: 'gauge',
    processes: ['channel-node'],
    labels: [],
    help: 'Partitions of the cluster (PARTITIONS); every node reports the same value',
  },
  channel_partitions_owned: {
    type: 'gauge',
    processes: ['channel-node'],
    labels: [],
    help: 'Partitions this channel-node owns (holds the lock of and runs an actor for)',
  },
  channel_commands_total: {
    type: 'counter',
    processes: ['channel-node'],
    labels: ['outcome'],
    help: 'Commands handled by partition actors, by outcome',
  },
  channel_commit_seconds: {
    type: 'histogram',
    processes: ['channel-node'],
    labels: [],
    help: 'Duration of one group commit',
  },
  channel_commit_batch_size: {
    type: 'histogram',
    processes: ['channel-node'],
    labels: [],
    help: 'Commands per group commit',
  },
  channel_commit_lane_wait_seconds: {
    type: 'histogram',
    processes: ['channel-node'],
    labels: [],
    help: 'How long a partition batch waited for one of the COMMIT_LANES',
  },
  channel_commit_lingered_total: {
    type: 'counter',
    processes: ['channel-node'],
    labels: ['end'],
    help: 'Waits of a commit lane for more commands between transactions, by how they ended: filled (COMMIT_FILL commands waiting) or timed_out',
  },
  channel_transaction_seconds: {
    type: 'histogram',
    processes: ['channel-node'],
    labels: [],
    help: 'Duration of one merged transaction: a pooled connection, the statement, the commit',
  },
  channel_transaction_commands: {
    type: 'histogram',
    processes: ['channel-node'],
    labels: [],
    help: 'Commands per merged transaction (the partition batches of one moment together)',
  },
  channel_bundle_parts_total: {
    type: 'counter',
    processes: ['channel-node'],
    labels: ['route'],
    help: "Parts of node bundles (several partitions' requests from a gateway in one message), by route: local (an actor here) or forwarded (the partition is not owned here)",
  },
  channel_commit_isolation_total: {
    type: 'counter',
    processes: ['channel-node'],
    labels: ['event'],
    help: 'Extra transactions run to isolate failing commands (transaction), and commands that failed alone (failed_alone)',
  },
  channel_mentions_dropped_total: {
    type: 'counter',
    processes: ['channel-node'],
    labels: ['reason'],
    help: 'Mention notifications not stored: the user may not read the channel (unreadable), or is over notificationsPerUserPerMinute (over_cap)',
  },
  // the dispatcher
  webhook_attempts_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: ['result'],
    help: 'Webhook delivery attempts by result',
  },
  webhook_attempt_duration_seconds: {
    type: 'histogram',
    processes: ['dispatcher'],
    labels: [],
    help: 'Duration of webhook delivery attempts',
  },
  webhook_deferrals_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: ['reason'],
    help: 'Claimed deliveries put back without an attempt, by reason',
  },
  webhook_dropped_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: [],
    help: 'Deliveries dropped: their last attempt failed with the retry schedule used up (status dropped, kept for retention)',
  },
  webhook_notices_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: ['result'],
    help: 'Delivery notices taken by this dispatcher as owner: queued (sent from memory) or overflow (left to the catch-up)',
  },
  webhook_push_queued: {
    type: 'gauge',
    processes: ['dispatcher'],
    labels: [],
    help: "Deliveries waiting in this dispatcher's memory: for a place in the send window, or held back by their endpoint's limit or open circuit",
  },
  webhook_push_rows_held: {
    type: 'gauge',
    processes: ['dispatcher'],
    labels: [],
    help: "Deliveries waiting in this dispatcher's memory with the row their notice carried: sent without a claim while their commit lease lasts",
  },
  webhook_leased_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: ['by'],
    help: 'Deliveries taken for a send, by how they were leased: notice (sent as the post-commit notice carried them, under their commit lease: no claim) or claim',
  },
  webhook_caught_up_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: [],
    help: 'Deliveries whose notice was lost, found in the ledger by their owner and queued',
  },
  webhook_adopted_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: [],
    help: 'Deliveries of a dispatcher that died, taken over by this one when it took the partition (their dead leases claimed over)',
  },
  webhook_log_read_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: [],
    help: 'Deliveries of the delivery log this owner found without an outcome in its reads of the log (their notice lost, or a body too large to carry) and queued',
  },
  webhook_partitions_owned: {
    type: 'gauge',
    processes: ['dispatcher'],
    labels: [],
    help: "Webhook partitions (of 16) this dispatcher owns: it alone sends to their environments' endpoints",
  },
  webhook_forwards_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: ['result'],
    help: "Job deliveries routed by this dispatcher: queued_here (its own partition's, into its memory queue), sent_here (its own, its memory full), forwarded (taken by another partition's owner) or deferred (no owner took them: a job again in a second)",
  },
  webhook_requeued_total: {
    type: 'counter',
    processes: ['dispatcher'],
    labels: [],
    help: "Claimed deliveries whose endpoint had no room after all, put back in the owner's memory queue (lease released, no deferral)",
  },
  webhook_backlog_oldest_seconds: {
    type: 'gauge',
    processes: ['dispatcher'],
    labels: [],
    help: 'Age of the oldest due, undelivered webhook delivery (seconds past its next attempt time; 0: none waiting)',
  },
  // Postgres: how each process finds its server, and the gateway's read replica
  postgres_server_searches_total: {
    type: 'counter',
    processes: EVERY_PROCESS,
    labels: ['pool', 'outcome'],
    help: 'Searches of the listed Postgres servers for one that fits (after a connection to the last one failed or was refused), by pool and outcome: found or none',
  },
  postgres_sessions_refused_total: {
    type: 'counter',
    processes: EVERY_PROCESS,
    labels: ['pool', 'reason'],
    help: 'New Postgres sessions refused after their server said what it is, by pool and reason: read_only (a standby or a read-only server), older_timeline (an old primary back after a promotion), writable (a primary where a standby was asked for)',
  },
  postgres_reads_total: {
    type: 'counter',
    processes: ['gateway'],
    labels: ['read', 'pool', 'reason'],
    help: 'Reads that may use the read pool (DATABASE_READ_URL), by read, the pool that answered and why: replica current or waited; primary no_replica, behind or failed',
  },
  postgres_replica_lag_seconds: {
    type: 'gauge',
    processes: ['gateway'],
    labels: ['pool'],
    help: "Seconds the read pool's server (DATABASE_READ_URL) is behind its primary: since its last replayed transaction, 0 while it streams and has replayed all it received (an idle primary is no lag)",
  },
  postgres_replica_lag_bytes: {
    type: 'gauge',
    processes: ['gateway'],
    labels: ['pool'],
    help: "Bytes of WAL the read pool's server (DATABASE_READ_URL) has received and not yet replayed",
  },
  // usage counting (docs/stats.md), in every process unless USAGE_COUNTING=off
  usage_flushes_total: {
    type: 'counter',
    processes: EVERY_PROCESS,
    labels: ['outcome'],
    help: 'Writes of the usage meter into usage_minutes, by outcome: written, repeated (a retried flush found already committed: nothing added) or failed (kept and written again)',
  },
} as const satisfies Record<string, MetricEntry>;

export type MetricName = keyof typeof METRICS;
type NamesOf<T extends MetricType> = { [N in MetricName]: (typeof METRICS)[N]['type'] extends T ? N : never }[MetricName];
type LabelOf<N extends MetricName> = (typeof METRICS)[N]['labels'][number];

/** What prom-client's constructors (and `counterOf`) take from an entry: its name, help and label names. */
export interface MetricSpec<N extends string, L extends string> {
  name: N;
  help: string;
  labelNames: readonly L[];
}

function specOf<N extends MetricName>(name: N): MetricSpec<N, LabelOf<N>> {
  const entry: MetricEntry = METRICS[name];
  return { name, help: entry.help, labelNames: entry.labels as readonly LabelOf<N>[] };
}

/** A counter's spec: `new Counter({ ...counterSpec('x_total'), registers: [registry] })`; a gauge's or a histogram's name does not compile. */
export const counterSpec = <N extends NamesOf<'counter'>>(name: N) => specOf(name);
export const gaugeSpec = <N extends NamesOf<'gauge'>>(name: N) => specOf(name);
/** Buckets stay beside the code that observes: they say what the code expects to measure. */
export const histogramSpec = <N extends NamesOf<'histogram'>>(name: N) => specOf(name);

export interface MetricRow extends MetricEntry {
  name: MetricName;
}

/** Every entry as a row, in the catalogue's order (the docs table's). */
export const METRIC_ROWS: readonly MetricRow[] = Object.entries(METRICS).map(([name, entry]) => ({ name: name as MetricName, ...entry }));

/** The metrics one kind of process registers. */
export const metricsOf = (kind: ProcessKind): MetricRow[] => METRIC_ROWS.filter((row) => row.processes.includes(kind));
