/**
 * The development defaults every process started from this checkout gets, by `npm start`
 * (scripts/start.ts) and by the root scripts `npm run gateway|channel-node|dispatcher`
 * (scripts/run.ts) alike: webhooks to loopback allowed, and the development webhook-secret key
 * (.data/secret-encryption-key, git-ignored, made on first use). An operator's own values win.
 * A process started by hand beside `npm start` must see the same: a dispatcher that refused
 * loopback would own partitions whose endpoints the others reach, and hold their deliveries.
 */
import { fileURLToPath } from 'node:url';
import { DEV_KEY_FILE, ensureDevEncryptionKey } from '@rtm/webhooks';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export async function developmentEnv(env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  return {
    ...env,
    WEBHOOK_ALLOW_LOOPBACK: env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    SECRET_ENCRYPTION_KEY: env.SECRET_ENCRYPTION_KEY ?? (await ensureDevEncryptionKey(`${ROOT}${DEV_KEY_FILE}`)),
  };
}
