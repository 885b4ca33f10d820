import { createServer, type Server } from 'node:http';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  check: () => Promise<unknown>;
}

/** The per-process Prometheus registry, with Node's default metrics and a `node` label. */
export function createMetrics(nodeName: string, kind: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ node: nodeName, kind });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * The registry's counter of that name, made at first use: several parts of one process (and the
 * apps a test builds twice on one registry) may ask for the same counter.
 */
export function counterOf<L extends string>(registry: Registry, spec: { name: string; help: string; labelNames: readonly L[] }): Counter<L> {
  const existing = registry.getSingleMetric(spec.name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name: spec.name, help: spec.help, labelNames: spec.labelNames, registers: [registry] });
}

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return null;
  } catch (error) {
    return `${check.name}: ${(error as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/internal/health` (the process is up), `/internal/ready` (its dependencies answer: 200 or 503
 * with the failing ones named), `/internal/metrics` (Prometheus text). Served on the process's
 * own internal port only; the public listeners answer 404 for `/internal/*`.
 */
export function createInternalServer(options: { registry: Registry; checks: ReadinessCheck[]; isDraining?: () => boolean }): Server {
  return createServer((req, res) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      const headers: Record<string, string> = { 'content-type': type };
      // the error envelope here too: non-2xx bodies carry `code`, repeated in x-service-error
      const code = (body as { code?: unknown } | null)?.code;
      if (typeof code === 'string') headers['x-service-error'] = code;
      res.writeHead(status, headers);
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(404, { code: 'not_found', reason: `no route ${req.method} ${path}` });
    }
    if (path === '/internal/health') return send(200, { status: 'ok' });
    if (path === '/internal/ready') {
      if (options.isDraining?.()) return send(503, { code: 'unavailable', reason: 'draining', status: 'draining' });
      void Promise.all(options.checks.map(runCheck)).then((results) => {
        const failures = results.filter((r): r is string => r !== null);
        // every check by name, so an operator sees what was checked, not only what failed
        const checks = Object.fromEntries(options.checks.map((c, i) => [c.name, results[i] === null ? 'ok' : 'failing']));
        send(
          failures.length ? 503 : 200,
          failures.length ? { code: 'unavailable', reason: failures.join('; '), status: 'unready', checks, failures } : { status: 'ready', checks },
        );
      });
      return;
    }
    if (path === '/internal/metrics') {
      void options.registry.metrics().then(
        (text) => send(200, text, options.registry.contentType),
        (error: Error) => send(500, { code: 'internal', reason: error.message }),
      );
      return;
    }
    send(404, { code: 'not_found', reason: `no route GET ${path}` });
  });
}

/** Binds `server` to `port` on `host` (HOST: every process's listeners bind the same address); the port bound. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/** The readiness checks every process shares: Postgres answers a query, NATS a round trip. */
export function dependencyChecks(pool: { query(text: string): Promise<unknown> }, nc: { flush(): Promise<void> }): ReadinessCheck[] {
  return [
    { name: 'postgres', check: () => pool.query('select 1') },
    { name: 'nats', check: () => nc.flush() },
  ];
}
