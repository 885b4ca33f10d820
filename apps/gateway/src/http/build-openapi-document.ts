import { randomBytes } from 'node:crypto';
import { createSecretKeyring } from '@rtm/webhooks';
import { Registry } from 'prom-client';
import { loadGatewayConfig } from '@rtm/config';
import { createPool } from '@rtm/db';
import type { NatsConnection } from '@rtm/bus';
import { createLogger } from '@rtm/ops';
import { buildGateway, type Gateway } from '../build-gateway.ts';
import { createGatewayDeps } from '../deps.ts';

/**
 * A NATS connection for building without a server: building the apps must not touch the bus
 * (it is used at request time only), so any use is a bug and says where.
 */
function offlineBus(): NatsConnection {
  return new Proxy({} as NatsConnection, {
    get(_target, property) {
      if (property === 'then') return undefined; // not a thenable
      return () => {
        throw new Error(`NATS used while building the gateway (nc.${String(property)}): move it to request time or main.ts`);
      };
    },
  });
}

/**
 * Both apps as `main.ts` builds them, with the default configuration and without Postgres or
 * NATS: the pool connects lazily and is never used, the bus is offline. Nothing listens; `close`
 * releases them. The OpenAPI document and the contract's unit test read the routes from these.
 */
export async function buildOfflineGateway(): Promise<{ gateway: Gateway; close: () => Promise<void> }> {
  const config = loadGatewayConfig({});
  const pool = createPool(config.DATABASE_URL, { max: 1, name: 'openapi' });
  const deps = createGatewayDeps({
    config,
    pool,
    nc: offlineBus(),
    log: createLogger({ level: 'silent', name: 'openapi' }),
    metrics: new Registry(),
    // a throwaway key: nothing is encrypted while the apps are built
    secretKeyring: createSecretKeyring(randomBytes(32).toString('hex')),
  });
  const gateway = await buildGateway(deps);
  const close = async () => {
    await Promise.all([gateway.control.close(), gateway.realtime.close()]);
    await pool.end();
  };
  return { gateway, close };
}

/** The OpenAPI document, from the same apps (and zod schemas) `main.ts` serves. */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const { gateway, close } = await buildOfflineGateway();
  try {
    return gateway.openapi();
  } finally {
    await close();
  }
}
