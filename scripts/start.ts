/**
 * `npm start` (after scripts/setup.sh): one gateway, one channel-node and one dispatcher as
 * supervised children, each with its own internal port counting up from INTERNAL_PORT; a dev
 * environment and a dashboard login (owner of its organization) created on first start; every
 * start shows URLs, ids, the login and a curl example, and the secret key and the password only
 * when it made them (later starts say where they are kept and how to make new ones).
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
let devLogin: { login: DevLogin; created: boolean };
try {
  dev = await ensureDevEnvironment(pool, values['state-file']!);
  devLogin = await ensureDevLogin(pool, values['state-file']!, dev.environment.organizationId);
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
  // follows this record while this process runs (at HOST, or loopback when HOST is every interface)
  const host = reachableHost(config.HOST);
  recordRunning(values['state-file']!, {
    pid: process.pid,
    controlUrl: `http://${host}:${controlPort}`,
    realtimeUrl: `http://${host}:${realtimePort}`,
  }).catch((error: unknown) => process.stderr.write(`[start] could not record the ports in ${values['state-file']}: ${(error as Error).message}\n`));
  if (bannerShown) return;
  bannerShown = true;
  process.stdout.write(banner(dev.environment, dev.created, devLogin, controlPort, realtimePort));
});

/** Where this machine reaches a listener bound to `host`: a wildcard address is reached on loopback. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function banner(
  environment: CreatedEnvironment,
  created: boolean,
  devLogin: { login: DevLogin; created: boolean },
  controlPort: number,
  realtimePort: number,
): string {
  const b = (text: string) => (colour ? `\u001b[1m${text}\u001b[0m` : text);
  const stateFile = values['state-file']!;
  const host = reachableHost(config.HOST);
  const controlUrl = `http://${host === '127.0.0.1' ? 'localhost' : host}:${controlPort}`;
  const realtimeUrl = `http://${host === '127.0.0.1' ? 'localhost' : host}:${realtimePort}`;
  const { login } = devLogin;
  // secrets are shown when made; later starts say where they are (the state file, mode 0600)
  const secretKeyLine = created
    ? `  secret key       ${environment.secretKey}`
    : `  secret key       shown when created; kept in ${stateFile} (a new one: npm run admin -- create-key --env ${environment.environmentId} --kind secret)`;
  const loginLine = devLogin.created
    ? `  dev login        ${login.email} / ${login.password}`
    : `  dev login        ${login.email} (password shown when created; kept in ${stateFile}: delete its "login" for a new one)`;
  const keyText = created ? environment.secretKey : '$SECRET_KEY';
  return [
    '',
    b(`Realtime messaging service is running${created ? ' (dev environment created)' : ''}`),
    `  control plane    ${controlUrl}`,
    `  realtime edge    ${realtimeUrl}`,
    `  API reference    ${controlUrl}/docs  (OpenAPI: /openapi.json, AsyncAPI: /asyncapi.json)`,
    `  environment      ${environment.environmentId}`,
    secretKeyLine,
    `  publishable key  ${environment.publishableKey}`,
    `  dashboard        ${controlUrl}/dashboard  (API: ${controlUrl}/v1/dashboard/…)`,
    loginLine,
    `  (kept in ${stateFile})`,
    '',
    'Mint a user token, then use it on the realtime edge:',
    ...(created ? [] : [`  SECRET_KEY=$(node -pe 'require(${JSON.stringify(stateFile)}).secretKey')`]),
    `  TOKEN=$(curl -s -X POST ${controlUrl}/v1/tokens -H "authorization: Bearer ${keyText}" \\`,
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
