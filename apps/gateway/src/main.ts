import { configOrExit, loadGatewayConfig } from '@rtm/config';
import { createPool, migrate } from '@rtm/db';
import { connectBus } from '@rtm/bus';
import { announce, createInternalServer, createLogger, createMetrics, listen, onShutdown } from '@rtm/ops';
import { buildGateway } from './build-gateway.ts';
import { createGatewayDeps } from './deps.ts';

const config = configOrExit(loadGatewayConfig);
const name = config.NODE_NAME ?? `gateway-${process.pid}`;
const log = createLogger({ level: config.LOG_LEVEL, name });
const metrics = createMetrics(name, 'gateway');
const pool = createPool(config.DATABASE_URL, { max: 20, name });
// migrations are applied at start by every process (safe concurrently: an advisory lock)
await migrate(pool).catch((error: unknown) => {
  const where = new URL(config.DATABASE_URL);
  where.password = '';
  log.fatal({ err: error }, `cannot migrate the database at ${where.toString()}`);
  process.exit(1);
});
const nc = await connectBus(config.NATS_URL, name).catch((error: unknown) => {
  // a supervisor (npm start, systemd) restarts us; say plainly what is missing
  log.fatal({ err: error }, `cannot connect to NATS at ${config.NATS_URL}`);
  process.exit(1);
});
const deps = createGatewayDeps({ config, pool, nc, log, metrics });

// a revoked key, removed origin or retired signing key: every gateway forgets at once
const invalidations = nc.subscribe(deps.subjects.invalidate, { callback: () => deps.credentials.clear() });

let draining = false;
const gateway = await buildGateway(deps);
const internal = createInternalServer({
  registry: metrics,
  isDraining: () => draining,
  checks: [
    { name: 'postgres', check: () => pool.query('select 1') },
    { name: 'nats', check: () => nc.flush() },
  ],
});

// a port already taken is an operator error: name the variable instead of a stack trace
const orExit = <T>(variable: string, port: number) => (error: unknown): T => {
  log.fatal({ err: error }, `cannot listen on ${variable}=${port}: ${(error as Error).message}`);
  process.exit(1);
};
const controlPort = (await gateway.control.listen({ port: config.CONTROL_PORT, host: '0.0.0.0' }).catch(orExit<string>('CONTROL_PORT', config.CONTROL_PORT)), gateway.control.server.address());
const realtimePort = (await gateway.realtime.listen({ port: config.REALTIME_PORT, host: '0.0.0.0' }).catch(orExit<string>('REALTIME_PORT', config.REALTIME_PORT)), gateway.realtime.server.address());
const internalPort = await listen(internal, config.INTERNAL_PORT).catch(orExit<number>('INTERNAL_PORT', config.INTERNAL_PORT));
announce({
  kind: 'gateway',
  node: name,
  controlPort: typeof controlPort === 'object' && controlPort ? controlPort.port : config.CONTROL_PORT,
  realtimePort: typeof realtimePort === 'object' && realtimePort ? realtimePort.port : config.REALTIME_PORT,
  internalPort,
});

onShutdown(log, async () => {
  draining = true;
  // sockets are told 4503 (reconnect elsewhere) by the socket handlers' onClose hooks
  await Promise.all([gateway.control.close(), gateway.realtime.close()]);
  invalidations.unsubscribe();
  await nc.drain();
  await pool.end();
  internal.close();
});
