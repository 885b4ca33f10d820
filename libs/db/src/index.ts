import pg from 'pg';

export { migrate, migrateAtStart } from './migrate.ts';
export { withTransaction } from './transaction.ts';
export { isConnectionError } from './connection-errors.ts';
export { derivedId, newId, randomToken } from './ids.ts';
export { ARRAY_ELEMENT_OID, binaryTextArray } from './binary-array.ts';
export { ADVISORY_LOCKS } from './advisory-locks.ts';
export { PartitionOwnership, type OwnershipOptions } from './partition-ownership.ts';
export {
  ERASE_TASK,
  DELETE_CHANNEL_TASK,
  ERASE_MAX_ATTEMPTS,
  ERASURE_LEASE_SECONDS,
  erasureJobKey,
  eraseJobSql,
  handOverErasure,
  createErasureJob,
  getErasureJob,
  takeErasureJob,
  nextErasureBatch,
  advanceErasureJob,
  pruneErasureJobs,
  reconcileErasureJobs,
  type ErasePayload,
  type ErasureJob,
  type ErasureTarget,
} from './erasure-jobs.ts';
export {
  createChannelDeletion,
  takeChannelDeletion,
  markChannel,
  deleteMessageBatch,
  finishChannelRows,
  endChannelDeletion,
  releaseChannelDeletion,
  channelDeletionOutcome,
  channelExists,
  noteClosingError,
  pollDelays,
  DELETING_LEASE_SECONDS,
  LOST,
  type ChannelDeletionOutcome,
  type MessagesDeleted,
  messageEventIds,
} from './channel-deletion.ts';
export {
  admitNotificationsSql,
  notificationCapSql,
  NOTIFICATION_CAP_LIMIT,
  CURRENT_MINUTE_SQL,
  SWEEP_NOTIFICATION_WINDOWS_SQL,
  WINDOW_SECONDS_LEFT_SQL,
} from './notification-windows.ts';
export { readInbox, storeNotifications, type NotificationFrame } from './notifications.ts';
export {
  readActiveDeployment,
  insertDeployment,
  activateDeployment,
  readActiveNamespaces,
  lockActiveDeployment,
  lockDeploys,
  lockWebhooksOff,
} from './config-deployments.ts';

export { Reads, CATCH_UP_WAIT_MS, type ReadKind, type ReadServed, type Queryable } from './reads.ts';
export { lagSeconds, type ReplayState } from './read-freshness.ts';
export { LocatingClient, NoServerError, ServerLocator, locatorFor, type LocatorEvent, type LocatorObserver } from './server-locator.ts';
import { LocatingClient } from './server-locator.ts';

export type { Pool, PoolClient } from 'pg';

// int8 columns (seq, ts, pk) are read as numbers: they stay far below 2^53
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A pool whose queries never wait forever: a statement is cancelled by Postgres after
 * `statementTimeoutMs`, a reply that never comes (a silent network) fails the query on our side a
 * little later, and TCP keep-alive notices dead peers, so a caller answers 503 instead of hanging.
 * `connectionString` may list several hosts (libpq's form): every session goes to the one that
 * fits its `target_session_attrs` (read-write unless the URL says otherwise), found and checked
 * by the URL's ServerLocator (server-locator.ts).
 */
export function createPool(
  connectionString: string,
  options: {
    max?: number;
    name?: string;
    statementTimeoutMs?: number;
    /** Prepared statements use one generic plan, never re-planned per execution (`plan_cache_mode`). */
    genericPlans?: boolean;
  } = {},
): pg.Pool {
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  const pool = new pg.Pool({
    Client: LocatingClient,
    connectionString,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: options.name ?? 'rtm',
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.genericPlans && { options: '-c plan_cache_mode=force_generic_plan' }),
  });
  // an idle client that loses its connection emits here; the pool replaces it
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
export {
  USAGE_TABLES,
  USAGE_COLUMNS,
  USAGE_SUM_COLUMNS,
  USAGE_MAX_COLUMNS,
  SETTLE_MS,
  USAGE_RETENTION,
  rollupSql,
  rollupPlan,
  rollUpUsage,
  pruneCutoffs,
  pruneUsage,
  type RollupPlan,
  type UsageColumn,
} from './usage-rollup.ts';
export { statsSql, statsEntry, readStats, type StatsEntry, type StatsRow } from './usage-stats.ts';
