import { randomBytes } from 'node:crypto';
import { Counter, Gauge, Histogram } from 'prom-client';
import { configOrExit, loadChannelNodeConfig } from '@rtm/config';
import { ADVISORY_LOCKS, createPool, migrateAtStart, locatorFor, PartitionOwnership } from '@rtm/db';
import { connectBus, watchLogInterest, encodeJson, subjects, webhookPartitionOf } from '@rtm/bus';
import { announce, createInternalServer, createLogger, createMetrics, dependencyChecks, listen, onShutdown, orExit, redactUrl, watchDatabase } from '@rtm/ops';
import { counterSpec, gaugeSpec, histogramSpec } from '@rtm/ops';
import { pushNotices, QuotaThresholds } from '@rtm/webhooks';
import { createUsage } from '@rtm/usage';
import { PartitionActor } from './partition-actor.ts';
import { LANE_OPENS_AFTER_MS, NodeCommitter } from './node-committer.ts';
import { NodeInbox } from './node-inbox.ts';

const config = configOrExit(loadChannelNodeConfig);
const name = config.NODE_NAME ?? `channel-node-${process.pid}`;
const log = createLogger({ level: config.LOG_LEVEL, name });
const metrics = createMetrics(name, 'channel-node');
// a few connections suffice: each actor holds one only for its commit, and this machine class has 2 cores.
// Generic plans: Postgres re-planned the large commit statement on every execution (its custom
// plans looked cheaper than the generic one), which took more of its CPU than running it; every
// statement here finds its rows by their keys either way (test/channels.write-plan.test.ts)
const pool = createPool(config.DATABASE_URL, { max: config.COMMIT_LANES + 2, name, genericPlans: true });
watchDatabase(locatorFor(config.DATABASE_URL), 'primary', metrics, log);
// migrations are applied at start by every process (safe concurrently: an advisory lock)
await orExit(log, `cannot migrate the database at ${redactUrl(config.DATABASE_URL)}`, migrateAtStart(pool, config.DATABASE_URL, log));
const nc = await orExit(log, `cannot connect to NATS at ${redactUrl(config.NATS_URL)}`, connectBus(config, name));
// live-log events only for the environments someone listens to (libs/bus log-interest.ts)
watchLogInterest(nc, subjects(config.NATS_PREFIX));
const subjectsOf = subjects(config.NATS_PREFIX);
// what this node commits, per environment and minute, written every USAGE_FLUSH_MS (docs/stats.md)
const usage = createUsage({ config, db: pool, metrics, log });

const actorMetrics = {
  batchSize: new Histogram({
    ...histogramSpec('channel_commit_batch_size'),
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
    registers: [metrics],
  }),
  commitSeconds: new Histogram({
    ...histogramSpec('channel_commit_seconds'),
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [metrics],
  }),
  messages: new Counter({
    ...counterSpec('channel_commands_total'),
    registers: [metrics],
  }),
};

/** Buckets of the commit's parts: finer at the low end, where a healthy transaction is. */
const SHORT_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

// one lane, and a further one while every transaction running has taken LANE_OPENS_AFTER_MS: what
// arrives meanwhile gathers into the next transaction, and a stalled one does not hold the rest
// the usage.threshold events of the monthly message quota (docs/quotas.md)
const quotaThresholds = new QuotaThresholds(pool, log);
const committer = new NodeCommitter(pool, {
  quotaCounted: (counts) => {
    for (const [environmentId, used, limit] of counts) quotaThresholds.counted({ environmentId, quota: 'monthlyMessages', used, limit });
  },
  maxCommands: config.MAX_BATCH * 4,
  lanes: config.COMMIT_LANES,
  laneOpensAfterMs: LANE_OPENS_AFTER_MS,
  // under load, fewer and fuller transactions (COMMIT_LINGER_MS, COMMIT_FILL: docs/channels.md)
  linger: { maxMs: config.COMMIT_LINGER_MS, fill: config.COMMIT_FILL },
  lingered: new Counter({
    ...counterSpec('channel_commit_lingered_total'),
    registers: [metrics],
  }),
  log,
  isolation: new Counter({
    ...counterSpec('channel_commit_isolation_total'),
    registers: [metrics],
  }),
  mentionsDropped: new Counter({
    ...counterSpec('channel_mentions_dropped_total'),
    registers: [metrics],
  }),
  // the post-commit notice: a dispatcher sends these at once (docs/webhooks.md, "First attempts"),
  // each row committed leased to the owner of its webhook partition, and carried in the notice
  pushLeaseMs: config.WEBHOOK_PUSH_LEASE,
  timings: {
    laneWaitSeconds: new Histogram({
      ...histogramSpec('channel_commit_lane_wait_seconds'),
      buckets: SHORT_SECONDS,
      registers: [metrics],
    }),
    transactionSeconds: new Histogram({
      ...histogramSpec('channel_transaction_seconds'),
      buckets: SHORT_SECONDS,
      registers: [metrics],
    }),
    transactionCommands: new Histogram({
      ...histogramSpec('channel_transaction_commands'),
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
      registers: [metrics],
    }),
  },
  usage: usage.usage,
  deliveriesCommitted: (deliveries) => {
    for (const { partition, entries } of pushNotices(deliveries, webhookPartitionOf)) {
      nc.publish(subjectsOf.webhookNotices(partition), encodeJson(entries));
    }
  },
});
const actors = new Map<number, PartitionActor>();
// gateways bundle a turn's requests for this node's partitions into one message (node-inbox.ts)
const inbox = new NodeInbox({
  nc,
  subjects: subjectsOf,
  // unique per process even when names repeat (every container's pid may be 1): two nodes on one
  // subject would both take a bundle
  node: `${name}.${randomBytes(6).toString('hex')}`,
  actorOf: (partition) => actors.get(partition),
  owned: () => [...actors].filter(([, actor]) => actor.running).map(([partition]) => partition),
  parts: new Counter({
    ...counterSpec('channel_bundle_parts_total'),
    registers: [metrics],
  }),
});
const ownership = new PartitionOwnership({
  databaseUrl: config.DATABASE_URL,
  nodeLocks: ADVISORY_LOCKS.channelNodes,
  partitionLocks: ADVISORY_LOCKS.partitions,
  applicationName: 'channel-node-locks',
  partitions: config.PARTITIONS,
  rebalanceMs: config.REBALANCE_MS,
  log,
  acquire: async (partition) => {
    const actor = new PartitionActor(partition, {
      committer,
      nc,
      subjects: subjectsOf,
      log,
      maxBatch: config.MAX_BATCH,
      metrics: actorMetrics,
      usage: usage.usage,
    });
    actors.set(partition, actor);
    try {
      await actor.start();
    } catch (error) {
      // ownership gives the lock back: this actor must not stay subscribed beside the next owner
      actor.abort();
      actors.delete(partition);
      throw error;
    }
    inbox.announceSoon();
    log.debug({ partition }, 'partition acquired');
  },
  release: async (partition) => {
    const actor = actors.get(partition);
    // draining: bundles for it are forwarded from now on; gateways learn it at once
    const drained = actor?.drain();
    inbox.announceSoon();
    await drained;
    actors.delete(partition);
    log.debug({ partition }, 'partition released');
  },
  lost: () => {
    for (const actor of actors.values()) actor.abort();
    actors.clear();
    inbox.announceSoon();
  },
});

let draining = false;
const internal = createInternalServer({
  registry: metrics,
  isDraining: () => draining,
  checks: [...dependencyChecks(pool, nc)],
});

// partitions held here, and how many there are: summed over the nodes, the difference is the
// partitions no node owns (no one commits their messages)
new Gauge({
  ...gaugeSpec('channel_partitions_owned'),
  registers: [metrics],
  collect() {
    this.set(ownership.partitions.size);
  },
});
new Gauge({
  ...gaugeSpec('channel_partitions'),
  registers: [metrics],
}).set(config.PARTITIONS);

// handlers before ownership and the announcement: a SIGTERM at any moment after this drains
onShutdown(log, async () => {
  draining = true;
  // stop taking commands, finish the batches in hand, then unlock so another node takes over
  await ownership.stop();
  await inbox.stop();
  // the batches in hand are committed: their counts are the last to write
  await usage.stop();
  await nc.drain();
  await pool.end();
  internal.close();
});

inbox.start();
usage.start();
await ownership.start();
const internalPort = await listen(internal, config.INTERNAL_PORT, config.HOST);
announce({ kind: 'channel-node', node: name, internalPort, host: config.HOST });
