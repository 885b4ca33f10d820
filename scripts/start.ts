/**
 * `npm start` (after scripts/setup.sh): one gateway, one channel-node and one dispatcher as
 * supervised children, each with its own internal port counting up from INTERNAL_PORT; a dev
 * environment and a dashboard login (owner of its organization) created on first start and
 * shown (URLs, ids, keys, the login, a curl example) on every start.
 *
 *   node --import tsx scripts/start.ts [gateway] [channel-node] [dispatcher] [--state-file PATH]
 *
 * Naming kinds starts only those (default: all three). The state file (default
 * .data/dev-environment.json) keeps the dev environment's keys and the dev login's password,
 * which are shown only once when made, and where the gateway listens while this runs (for
 * `npm run example:chat`).
 * Children get WEBHOOK_ALLOW_LOOPBACK=true and the development webhook-secret key
 * (.data/secret-encryption-key, made on first start) unless the environment sets them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { configOrExit, loadGatewayConfig } from '@rtm/config';
import { createPool } from '@rtm/db';
import { NODE_FLAGS } from '@rtm/ops';
import type { CreatedEnvironment } from '@rtm/auth';
import { ensureDevEnvironment, ensureDevLogin, recordRunning, type DevLogin } from './dev-environment.ts';
import { Supervisor, watchParent } from './supervisor.ts';
import { developmentEnv } from './dev-env.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const KINDS = ['gateway', 'channel-node', 'dispatcher'] as const;
type Kind = (typeof KINDS)[number];

// the environment is read here once: validated by the gateway's schema (the widest), and passed
// through untouched to every child, which validates its own part
const env = process.env;
const config = configOrExit(loadGatewayConfig);
const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: { 'state-file': { type: 'string', default: `${ROOT}.data/dev-environment.json` } },
  allowPositionals: true,
});
const unknown = positionals.filter((p) => !(KINDS as readonly string[]).includes(p));
if (unknown.length) {
  process.stderr.write(`unknown process kind ${unknown.join(', ')}; expected ${KINDS.join(', ')}\n`);
  process.exit(64);
}
const kinds: Kind[] = positionals.length ? (positionals as Kind[]) : [...KINDS];
const colour = process.stdout.isTTY === true;

// local development: webhooks to localhost allowed, and a webhook-secret key made once under
// .data/ (git-ignored) and shared by every child, as `npm run <kind>` gives them (dev-env.ts)
const childEnv = await developmentEnv(env);

// signals are handled from here on, before any child exists or anything is announced: a stop
// that arrives while the dev environment is being made ends the supervisor cleanly
const supervisor = new Supervisor({ cwd: ROOT, colour });
// A Ctrl-C under `npm start` arrives twice (from the terminal and forwarded by npm): signals
// within a second of the first are the same request; a later one means "stop waiting".
let firstSignalAt = 0;
const shutdown = (signal: string) => {
  const now = Date.now();
  if (firstSignalAt !== 0 && now - firstSignalAt < 1_000) return;
  if (firstSignalAt !== 0) {
    process.stdout.write(`[start] ${signal} again: killing\n`);
    supervisor.killAll();
    process.exit(1);
  }
  firstSignalAt = now;
  process.stdout.write(`[start] ${signal}: stopping (SIGTERM to every process, waiting for them to drain)\n`);
  void supervisor.stop(0);
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
// under `npm start` a process manager's SIGTERM goes to npm, which passes it to its shell only:
// npm and the shell end, and this process is orphaned. Noticing that is what stops the cluster.
watchParent(() => shutdown('parent process gone'));
// with the parent gone the terminal or pipe may be gone too: a failed write must not end the
// supervisor before its children have drained
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
supervisor.on('stopped', (code) => {
  process.stdout.write(`[start] stopped\n`);
  process.exit(code);
});

const pool = createPool(config.DATABASE_URL, { max: 1, name: 'start' });
let dev: { environment: CreatedEnvironment; created: boolean };
let devLogin: DevLogin;
try {
  dev = await ensureDevEnvironment(pool, values['state-file']!);
  ({ login: devLogin } = await ensureDevLogin(pool, values['state-file']!, dev.environment.organizationId));
} finally {
  await pool.end();
}

let internalPort = config.INTERNAL_PORT;
for (const kind of kinds) {
  const entry = `apps/${kind}/src/main.ts`;
  if (!existsSync(`${ROOT}${entry}`)) {
    process.stdout.write(`[start] ${entry} does not exist yet: not starting a ${kind}\n`);
    continue;
  }
  supervisor.add({
    name: kind,
    args: [...NODE_FLAGS[kind], '--import', 'tsx', entry],
    // port 0 (any free port) stays 0 for every child; otherwise each gets the next port
    env: { ...childEnv, NODE_NAME: env.NODE_NAME ?? kind, INTERNAL_PORT: String(internalPort) },
  });
  if (internalPort !== 0) internalPort += 1;
}

let bannerShown = false;
supervisor.on('listening', (name, info) => {
  if (name !== 'gateway') return;
  const controlPort = Number(info.controlPort);
  const realtimePort = Number(info.realtimePort);
  // every time the gateway (re)starts, since port 0 gives it new ports: `npm run example:chat`
  // follows this record while this process runs (the gateway listens on every interface)
  recordRunning(values['state-file']!, {
    pid: process.pid,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    realtimeUrl: `http://127.0.0.1:${realtimePort}`,
  }).catch((error: unknown) => process.stderr.write(`[start] could not record the ports in ${values['state-file']}: ${(error as Error).message}\n`));
  if (bannerShown) return;
  bannerShown = true;
  process.stdout.write(banner(dev.environment, dev.created, devLogin, controlPort, realtimePort));
});

function banner(environment: CreatedEnvironment, created: boolean, login: DevLogin, controlPort: number, realtimePort: number): string {
  const b = (text: string) => (colour ? `\u001b[1m${text}\u001b[0m` : text);
  const controlUrl = `http://localhost:${controlPort}`;
  const realtimeUrl = `http://localhost:${realtimePort}`;
  return [
    '',
    b(`Realtime messaging service is running${created ? ' (dev environment created)' : ''}`),
    `  control plane    ${controlUrl}`,
    `  realtime edge    ${realtimeUrl}`,
    `  API reference    ${controlUrl}/docs  (OpenAPI: /openapi.json, AsyncAPI: /asyncapi.json)`,
    `  environment      ${environment.environmentId}`,
    `  secret key       ${environment.secretKey}`,
    `  publishable key  ${environment.publishableKey}`,
    `  dashboard        ${controlUrl}/dashboard  (API: ${controlUrl}/v1/dashboard/…)`,
    `  dev login        ${login.email} / ${login.password}`,
    `  (kept in ${values['state-file']})`,
    '',
    'Mint a user token, then use it on the realtime edge:',
    `  TOKEN=$(curl -s -X POST ${controlUrl}/v1/tokens -H "authorization: Bearer ${environment.secretKey}" \\`,
    `    -H 'content-type: application/json' -d '{"userId":"alice"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')`,
    `  curl -s ${realtimeUrl}/v1/me -H "authorization: Bearer $TOKEN"`,
    '',
    `Client SDK for browsers: ${realtimeUrl}/sdk/client.js`,
    'A chat on it: `npm run example:chat` in another terminal (it follows these ports), then http://127.0.0.1:3000',
    '',
    'Ctrl-C stops everything.',
    '',
    '',
  ].join('\n');
}

