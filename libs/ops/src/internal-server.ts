import { createServer, type Server } from 'node:http';
import { Registry, collectDefaultMetrics } from 'prom-client';

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
export function createInternalServer(options: {
  registry: Registry;
  checks: ReadinessCheck[];
  isDraining?: () => boolean;
}): Server {
  return createServer((req, res) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return send(405, { code: 'invalid_request', reason: 'GET only' });
    if (path === '/internal/health') return send(200, { status: 'ok' });
    if (path === '/internal/ready') {
      if (options.isDraining?.()) return send(503, { status: 'draining' });
      void Promise.all(options.checks.map(runCheck)).then((results) => {
        const failures = results.filter((r): r is string => r !== null);
        send(failures.length ? 503 : 200, failures.length ? { status: 'unready', failures } : { status: 'ready' });
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
    send(404, { code: 'not_found' });
  });
}

export async function listen(server: Server, port: number, host = '0.0.0.0'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}
