import { configOrExit, exitOnConfigError, loadGatewayConfig } from '@rtm/config';
import { loadSecretKeyring, reencryptWebhookSecrets } from '@rtm/webhooks';
import { createPool, locatorFor, migrateAtStart } from '@rtm/db';
import { connectBus } from '@rtm/bus';
import { announce, createInternalServer, createLogger, createMetrics, dependencyChecks, listen, onShutdown, orExit, redactUrl, watchDatabase } from '@rtm/ops';
import { buildGateway } from './build-gateway.ts';
import { createGatewayDeps } from './deps.ts';
import { GatewayServices } from './services.ts';
import { replicaLagGauges } from './replica-lag.ts';
import { trustProxyWarning } from './http/trust-proxy.ts';
import { createUsage } from '@rtm/usage';

const config = configOrExit(loadGatewayConfig);
const name = config.NODE_NAME ?? `gateway-${process.pid}`;
const log = createLogger({ level: config.LOG_LEVEL, name });
const metrics = createMetrics(name, 'gateway');
const pool = createPool(config.DATABASE_URL, { max: 20, name });
watchDatabase(locatorFor(config.DATABASE_URL), 'primary', metrics, log);
// reads that may go to a replica (docs/read-replicas.md); unset: the primary serves them all
const readPool = config.DATABASE_READ_URL === undefined ? undefined : createPool(config.DATABASE_READ_URL, { max: 20, name: `${name} reads` });
if (config.DATABASE_READ_URL !== undefined) watchDatabase(locatorFor(config.DATABASE_READ_URL), 'replica', metrics, log);
replicaLagGauges(readPool, metrics, log);
// migrations are applied at start by every process (safe concurrently: an advisory lock)
const migrated = await orExit(log, `cannot migrate the database at ${redactUrl(config.DATABASE_URL)}`, migrateAtStart(pool, config.DATABASE_URL, log));
// a missing or malformed key stops the process (78) before anything listens
const secretKeyring = await loadSecretKeyring(config).catch(exitOnConfigError);
// a write: left to the next start when no server accepts writes (old keys stay readable meanwhile)
if (!('readOnly' in migrated)) {
  await orExit(log, 'cannot re-encrypt webhook secrets under the current key', reencryptWebhookSecrets(pool, secretKeyring).catch(exitOnConfigError));
}
const nc = await orExit(log, `cannot connect to NATS at ${redactUrl(config.NATS_URL)}`, connectBus(config, name));
// what this gateway sees, per environment and minute, written every USAGE_FLUSH_MS (docs/stats.md)
const usage = createUsage({ config, db: pool, metrics, log });
const deps = createGatewayDeps({ config, pool, readPool, nc, log, metrics, secretKeyring, usage });

// subscriptions and timers start here, before anything listens (the order: services.ts)
const services = new GatewayServices(deps);
services.start();

let draining = false;
const gateway = await buildGateway(deps);
const internal = createInternalServer({
  registry: metrics,
  isDraining: () => draining,
  checks: [...dependencyChecks(pool, nc)],
});

// handlers before the listeners and the announcement: a SIGTERM at any moment after this drains
onShutdown(log, async () => {
  draining = true;
  // sockets are told 4503 (reconnect elsewhere) by the socket handlers' onClose hooks
  await Promise.all([gateway.control.close(), gateway.realtime.close()]);
  await services.stop(log);
  await nc.drain();
  deps.requester.close();
  await pool.end();
  await readPool?.end();
  internal.close();
});

// a port already taken is an operator error: name the variable instead of a stack trace
const listenOn = (variable: string, port: number) => `cannot listen on ${variable}=${port}`;
// every listener binds HOST (loopback unless set; deploy/ sets 0.0.0.0)
const trustProxyRisk = trustProxyWarning(config.TRUST_PROXY, config.NODE_ENV, config.HOST);
if (trustProxyRisk) log.warn({ trustProxy: true, host: config.HOST }, trustProxyRisk);
// a storm of connections (every client of a gateway that went away comes back at once) must not
// overflow the accept queue: Node's default of 511 drops the rest's SYNs, and each dropped client
// waits out TCP's retransmission back-off (1 s, 3 s, 7 s, …); the kernel caps it at somaxconn
const BACKLOG = 4096;
await orExit(log, listenOn('CONTROL_PORT', config.CONTROL_PORT), gateway.control.listen({ port: config.CONTROL_PORT, host: config.HOST, backlog: BACKLOG }));
await orExit(
  log,
  listenOn('REALTIME_PORT', config.REALTIME_PORT),
  gateway.realtime.listen({ port: config.REALTIME_PORT, host: config.HOST, backlog: BACKLOG }),
);
const internalPort = await orExit(log, listenOn('INTERNAL_PORT', config.INTERNAL_PORT), listen(internal, config.INTERNAL_PORT, config.HOST));
const controlPort = gateway.control.server.address();
const realtimePort = gateway.realtime.server.address();

announce({
  kind: 'gateway',
  node: name,
  controlPort: typeof controlPort === 'object' && controlPort ? controlPort.port : config.CONTROL_PORT,
  realtimePort: typeof realtimePort === 'object' && realtimePort ? realtimePort.port : config.REALTIME_PORT,
  internalPort,
  host: config.HOST,
});
