import { configOrExit, exitOnConfigError, loadDispatcherConfig } from '@rtm/config';
import { createUsage } from '@rtm/usage';
import { loadSecretKeyring, reencryptWebhookSecrets } from '@rtm/webhooks';
import { HostResolver } from '@rtm/rules';
import { ADVISORY_LOCKS, createPool, migrateAtStart, locatorFor, PartitionOwnership } from '@rtm/db';
import { connectBus, watchLogInterest, Requester, subjects, WEBHOOK_PARTITIONS } from '@rtm/bus';
import { OwnerClient } from '@rtm/owner-client';
import {
  announce,
  counterOf,
  createInternalServer,
  createLogger,
  createMetrics,
  dependencyChecks,
  listen,
  onShutdown,
  orExit,
  redactUrl,
  watchDatabase,
} from '@rtm/ops';
import { counterSpec } from '@rtm/ops';
import { Deliverer, LEASE_MARGIN_MS } from './deliverer.ts';
import { WebhookSender } from './send-webhook.ts';
import { WorkerRecovery } from './worker-recovery.ts';
import { buildWorker, WorkerSupervisor } from './build-worker.ts';
import { backlogGauge } from './backlog-metric.ts';
import { PushedRows } from './pushed-rows.ts';
import { PushIntake } from './push-intake.ts';
import { LogPositions } from './log-positions.ts';
import { EndpointGuard } from './endpoint-guard.ts';

/** How often a dispatcher rebalances webhook partitions with the others. */
const REBALANCE_MS = 1_000;

const config = configOrExit(loadDispatcherConfig);
const name = config.NODE_NAME ?? `dispatcher-${process.pid}`;
const log = createLogger({ level: config.LOG_LEVEL, name });
const metrics = createMetrics(name, 'dispatcher');
// graphile-worker's own queries, the tasks' short ledger statements, the liveness connection;
// kept small so several dispatchers fit in Postgres's default 100 connections
const pool = createPool(config.DATABASE_URL, { max: Math.min(20, config.WORKER_CONCURRENCY + 4), name });
watchDatabase(locatorFor(config.DATABASE_URL), 'primary', metrics, log);
// migrations are applied at start by every process (safe concurrently: an advisory lock)
const migrated = await orExit(log, `cannot migrate the database at ${redactUrl(config.DATABASE_URL)}`, migrateAtStart(pool, config.DATABASE_URL, log));
// a missing or malformed key stops the process (78) before it takes any job
const secretKeyring = await loadSecretKeyring(config).catch(exitOnConfigError);
// a write: left to the next start when no server accepts writes (old keys stay readable meanwhile)
if (!('readOnly' in migrated)) {
  await orExit(log, 'cannot re-encrypt webhook secrets under the current key', reencryptWebhookSecrets(pool, secretKeyring).catch(exitOnConfigError));
}
const nc = await orExit(log, `cannot connect to NATS at ${redactUrl(config.NATS_URL)}`, connectBus(config, name));
// live-log events only for the environments someone listens to (libs/bus log-interest.ts)
watchLogInterest(nc, subjects(config.NATS_PREFIX));
const resolver = new HostResolver({
  servers: config.DNS_SERVERS,
  timeoutMs: config.DNS_TIMEOUT_MS,
  tries: config.DNS_TRIES,
  allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
});
const sender = new WebhookSender({
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
  resolver,
  refused: (url, reason) =>
    log.error(
      { url, reason, allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK },
      'this dispatcher refuses a webhook URL at send time (blocked_address); check that every dispatcher has the same WEBHOOK_ALLOW_LOOPBACK',
    ),
});
// the owned endpoints' places, circuits and rates: read by the intake, kept by the deliverer's sends
const endpoints = new EndpointGuard(config);
// the rows the post-commit notices carry: read by the intake, sent without a claim by the deliverer
const pushed = new PushedRows(config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS);
// where this dispatcher stands in the delivery log of the partitions it owns
const logged = new LogPositions();
// the attempts this dispatcher records, per environment and minute, written every USAGE_FLUSH_MS (docs/stats.md)
const usage = createUsage({ config, db: pool, metrics, log });
const deliverer = new Deliverer({
  pool,
  nc,
  subjects: subjects(config.NATS_PREFIX),
  config,
  log,
  metrics,
  sender,
  secretKeyring,
  endpoints,
  pushed,
  logged,
  usage: usage.usage,
});
backlogGauge(pool, metrics, log);
const recovery = new WorkerRecovery({
  pool,
  log,
  intervalMs: config.WORKER_RECOVERY_INTERVAL,
  staleMs: config.WEBHOOK_STALE_AFTER,
});

// first attempts from the channel-nodes' notices, and every send of the webhook partitions this
// dispatcher owns (push-intake.ts; ownership: PartitionOwnership in libs/db)
const intake = new PushIntake({ deliverer, endpoints, pool, log, metrics, nc, subjects: subjects(config.NATS_PREFIX), pushed, logged });
// a dispatcher that lost a partition may still finish the sends it had started: each delivery's
// lease keeps them from being sent twice at once, and the endpoint's limit may be exceeded by
// those sends only, during the handover
const ownership = new PartitionOwnership({
  databaseUrl: config.DATABASE_URL,
  nodeLocks: ADVISORY_LOCKS.dispatcherNodes,
  partitionLocks: ADVISORY_LOCKS.webhookPartitions,
  // with the node's name, so pg_stat_activity and pg_locks tell which dispatcher holds which partition
  applicationName: `dispatcher-locks ${name}`.slice(0, 63),
  partitions: WEBHOOK_PARTITIONS,
  rebalanceMs: REBALANCE_MS,
  log,
  // who held each partition is kept, so a partition whose dispatcher died is known as such
  holders: 'webhooks',
  acquire: (partition, orphaned) => {
    endpoints.tookOver(partition, Date.now());
    return intake.own(partition, orphaned);
  },
  release: (partition) => intake.disown(partition),
  lost: () => intake.lost(),
});

// erasures retract through the channel owners as the gateway does (libs/owner-client)
const owners = new OwnerClient({
  nc,
  requester: new Requester(nc),
  subjects: subjects(config.NATS_PREFIX),
  partitions: config.PARTITIONS,
  ownerTimeoutMs: config.OWNER_TIMEOUT_MS,
  requests: counterOf(metrics, {
    ...counterSpec('dispatcher_owner_requests_total'),
  }),
});
owners.start();

let draining = false;
// a worker pool that stops (graphile-worker gives up on a Postgres error) is replaced, not left dead
const workers = new WorkerSupervisor({
  build: () => buildWorker({ config, pool, log, intake, recovery, owners, nc, subjects: subjects(config.NATS_PREFIX) }),
  release: (poolIds) => recovery.releaseLiveness(poolIds),
  log,
});
await workers.start();
recovery.start();
usage.start();
await ownership.start();
intake.start();

const internal = createInternalServer({
  registry: metrics,
  isDraining: () => draining,
  checks: [
    ...dependencyChecks(pool, nc),
    {
      name: 'worker',
      check: async () => {
        if (!workers.healthy) throw new Error('worker pool stopped; starting new runners');
      },
    },
  ],
});
// handlers before the listener and the announcement: a SIGTERM at any moment after this drains
onShutdown(log, async () => {
  draining = true;
  // partitions given back to the other dispatchers; deliveries still waiting in memory are
  // handed back as jobs (which forward them to the next owner)
  await ownership.stop();
  await intake.stop();
  // chunks being sent finish and are recorded, the rest of their batches are handed back as new
  // jobs, and jobs only queued locally go back to the table
  deliverer.drain();
  await workers.stop();
  // sends left running in the background by their jobs end (within WEBHOOK_TIMEOUT_MS) and are recorded
  await deliverer.settled();
  await recovery.stop();
  // every send is recorded: their counts are the last to write
  await usage.stop();
  owners.stop();
  await sender.close();
  await nc.drain();
  await pool.end();
  internal.close();
});

const internalPort = await listen(internal, config.INTERNAL_PORT, config.HOST);
announce({ kind: 'dispatcher', node: name, internalPort, host: config.HOST });
