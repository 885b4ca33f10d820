import pg from 'pg';

export { migrate } from './migrate.ts';
export { withTransaction } from './transaction.ts';
export { newId, randomToken } from './ids.ts';
export { ARRAY_ELEMENT_OID, binaryTextArray } from './binary-array.ts';
export { ADVISORY_LOCKS } from './advisory-locks.ts';
export { PartitionOwnership, type OwnershipOptions } from './partition-ownership.ts';
export {
  ERASE_TASK, DELETE_CHANNEL_TASK, ERASE_MAX_ATTEMPTS, ERASURE_LEASE_SECONDS, erasureJobKey, eraseJobSql, handOverErasure, createErasureJob, getErasureJob, takeErasureJob, nextErasureBatch, advanceErasureJob,
  pruneErasureJobs, reconcileErasureJobs, type ErasePayload, type ErasureJob, type ErasureTarget } from './erasure-jobs.ts';
export {
  createChannelDeletion, takeChannelDeletion, markChannel, deleteMessageBatch, finishChannelRows, endChannelDeletion, releaseChannelDeletion,
  channelDeletionOutcome, channelExists, noteClosingError, pollDelays, DELETING_LEASE_SECONDS, LOST, type ChannelDeletionOutcome, type MessagesDeleted } from './channel-deletion.ts';
export {
  admitNotificationsSql,
  notificationCapSql,
  NOTIFICATION_CAP_LIMIT,
  CURRENT_MINUTE_SQL, SWEEP_NOTIFICATION_WINDOWS_SQL, WINDOW_SECONDS_LEFT_SQL } from './notification-windows.ts';
export { readInbox, storeNotifications, type NotificationFrame } from './notifications.ts';
export { readActiveDeployment, insertDeployment, activateDeployment, readActiveNamespaces, lockActiveDeployment, lockDeploys } from './config-deployments.ts';

export type { Pool, PoolClient } from 'pg';

// int8 columns (seq, ts, pk) are read as numbers: they stay far below 2^53
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A pool whose queries never wait forever: a statement is cancelled by Postgres after
 * `statementTimeoutMs`, a reply that never comes (a silent network) fails the query on our side a
 * little later, and TCP keep-alive notices dead peers, so a caller answers 503 instead of hanging.
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

/**
 * SQLSTATEs and socket codes that mean Postgres is away or going: connection exceptions (08…),
 * cancelled or shut-down sessions (57014, 57P0…), too many clients (53300: every process
 * reconnecting after a restart), and the socket errors of a peer that is gone or unreachable.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTCONN', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
  '57014', '57P01', '57P02', '57P03', '53300',
  '08000', '08001', '08003', '08004', '08006', '08P01',
]);
/**
 * What pg throws without a code when the connection is gone: the socket ended, the connect or the
 * reply timed out, or a client whose connection broke between two statements of a transaction is
 * asked for the next one ("Client has encountered a connection error and is not queryable").
 */
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable/i;

/**
 * True for errors that mean Postgres could not be reached, the connection broke, or it did not
 * answer in time (statement or query time-out): transient, so callers answer 503.
 */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  if (typeof code !== 'string') return CONNECTION_MESSAGES.test(String(error));
  return CONNECTION_CODES.has(code);
}

