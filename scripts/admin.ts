/**
 * Operator CLI, beside the dashboard: the same domain operations (@rtm/accounts), acting as the
 * operator in every organization and recorded in the audit log as `cli`. Examples:
 *   npm run --silent admin -- create-environment --org acme --project chat --env dev --json
 *   printf '%s' "$PASSWORD" | npm run --silent admin -- create-user --email ada@example.com --org acme --role owner --password-stdin
 *   npm run --silent admin -- list-environments
 *   npm run --silent admin -- create-key --env env_… --kind secret|publishable
 *   npm run --silent admin -- revoke-key --key sk_…      (or --id key_…)
 *   npm run --silent admin -- add-origin --env env_… --origin https://app.example.com
 *   npm run --silent admin -- remove-origin --env env_… --origin https://app.example.com
 *   npm run --silent admin -- set-limits --env env_… --set userPublishesPerSecond=100 --set socketsPerUser=20
 *   npm run --silent admin -- set-limits --env env_…      (no --set: every limit back to its default)
 * Changes that revoke access or change limits are announced on NATS so every gateway drops that
 * environment's cached entries at once; without NATS they still take effect within the
 * credential cache time (5 s).
 */
import { parseArgs } from 'node:util';
import { configOrExit, loadBaseConfig } from '@rtm/config';
import { createPool, migrate, type Pool } from '@rtm/db';
import { Accounts, CLI_ACTOR, isRole } from '@rtm/accounts';
import { isServiceError } from '@rtm/errors';
import { connectBus, subjects, type NatsSettings } from '@rtm/bus';
import { deployLimits, encodeInvalidation } from '@rtm/limits';
import { LIMIT_NAMES, QUOTA_NAMES } from '@rtm/rules';
import { LimitOverrides } from '@rtm/schemas';

const USAGE = `usage: admin <command> [options]
  create-environment --org NAME --project NAME --env NAME [--json]
  create-user --email EMAIL --org NAME_OR_ID --role owner|admin|viewer --password-stdin [--json]
      (the password is read from standard input, never from the command line)
  list-environments [--json]
  create-key --env ENV_ID --kind secret|publishable [--json]
  revoke-key (--key KEY | --id KEY_ID)
  add-origin --env ENV_ID --origin ORIGIN
  remove-origin --env ENV_ID --origin ORIGIN
  set-limits --env ENV_ID [--set NAME=VALUE]...   (replaces every override; names: ${[...LIMIT_NAMES, ...QUOTA_NAMES].join(', ')})`;

class UsageError extends Error {}

/** The password from standard input: all of it, one trailing newline removed; from a terminal, one line not echoed. */
async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    process.stderr.write('password: ');
    stdin.setRawMode(true);
    const line = await new Promise<string>((resolve) => {
      let text = '';
      const onData = (chunk: Buffer) => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n' || char === '\u0004') {
            stdin.off('data', onData);
            stdin.setRawMode(false);
            stdin.pause();
            process.stderr.write('\n');
            return resolve(text);
          }
          if (char === '\u0003') process.exit(130);
          text = char === '\u007f' ? text.slice(0, -1) : text + char;
        }
      };
      stdin.on('data', onData);
    });
    return line;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

async function announceInvalidation(nats: NatsSettings, prefix: string, environmentId: string): Promise<void> {
  const connecting = connectBus(nats, 'admin');
  let timer: NodeJS.Timeout | undefined;
  try {
    const nc = await Promise.race([connecting, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 2_000)))]);
    nc.publish(subjects(prefix).invalidate, encodeInvalidation(environmentId));
    await nc.drain();
  } catch {
    // a connection that comes up after the deadline must not keep the CLI from exiting
    connecting.then((late) => late.close()).catch(() => {});
    process.stderr.write('note: NATS not reachable; gateways pick the change up within their cache time\n');
  } finally {
    clearTimeout(timer);
  }
}

async function run(pool: Pool, accounts: Accounts, command: string | undefined, args: string[]): Promise<unknown> {
  if (args.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
    throw new UsageError('passwords are never taken from the command line (they would stay in shell history and process lists); use --password-stdin');
  }
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      org: { type: 'string' },
      project: { type: 'string' },
      env: { type: 'string' },
      kind: { type: 'string' },
      key: { type: 'string' },
      id: { type: 'string' },
      origin: { type: 'string' },
      set: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  switch (command) {
    case 'create-environment': {
      const names = { organization: required(values, 'org'), project: required(values, 'project'), environment: required(values, 'env') };
      return accounts.projects.createEnvironmentByNames(CLI_ACTOR, names);
    }
    case 'create-user': {
      const email = required(values, 'email');
      const organization = required(values, 'org');
      const role = required(values, 'role');
      if (!isRole(role)) throw new UsageError('--role must be owner, admin or viewer');
      if (!values['password-stdin']) throw new UsageError('--password-stdin is required: the password is read from standard input');
      const password = await readPassword();
      return accounts.organizations.createUser(CLI_ACTOR, { email, password, organization, role });
    }
    case 'list-environments': {
      const { rows } = await pool.query(
        `select e.id as "environmentId", e.name as environment, p.id as "projectId", p.name as project,
                o.id as "organizationId", o.name as organization, e.created_at as "createdAt"
         from environments e join projects p on p.id = e.project_id join organizations o on o.id = p.organization_id
         order by e.created_at`,
      );
      return rows;
    }
    case 'create-key': {
      const kind = required(values, 'kind');
      if (kind !== 'secret' && kind !== 'publishable') throw new UsageError('--kind must be secret or publishable');
      const environmentId = required(values, 'env');
      const created = await accounts.credentials.createKey(CLI_ACTOR, environmentId, kind);
      return { environmentId, kind, key: created.key };
    }
    case 'revoke-key': {
      const keyId = values.key ? await accounts.credentials.keyIdOf(values.key) : required(values, 'id');
      const environmentId = keyId === null ? null : await accounts.credentials.environmentOfKey(keyId);
      if (keyId === null || environmentId === null) throw new UsageError('no such active key');
      const { changed } = await accounts.credentials.revokeKey(CLI_ACTOR, environmentId, keyId);
      if (!changed) throw new UsageError('no such active key');
      return { revoked: keyId, environmentId };
    }
    case 'add-origin': {
      const environmentId = required(values, 'env');
      const { origin } = await accounts.credentials.addOrigin(CLI_ACTOR, environmentId, required(values, 'origin'));
      return { environmentId, origin, added: true };
    }
    case 'remove-origin': {
      const environmentId = required(values, 'env');
      const { origin, removed } = await accounts.credentials.removeOrigin(CLI_ACTOR, environmentId, required(values, 'origin'));
      return { environmentId, origin, removed };
    }
    case 'set-limits': {
      const environmentId = required(values, 'env');
      const overrides: Record<string, number> = {};
      for (const pair of values.set ?? []) {
        const match = /^([A-Za-z]+)=(\d+)$/.exec(pair);
        if (!match) throw new UsageError(`--set "${pair}" is not NAME=WHOLE_NUMBER`);
        overrides[match[1]!] = Number(match[2]);
      }
      // the same rules as the `limits` of PUT /v1/config
      const parsed = LimitOverrides.safeParse(overrides);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const name = issue?.path.join('.') || (issue && 'keys' in issue ? String(issue.keys) : '');
        throw new UsageError(`--set ${name}: ${issue?.message}`);
      }
      const deployed = await deployLimits(pool, environmentId, parsed.data);
      if (!deployed) throw new UsageError(`no environment ${environmentId}`);
      return { environmentId, ...deployed };
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
}

const config = configOrExit(loadBaseConfig);
const [command, ...rest] = process.argv.slice(2);
const pool = createPool(config.DATABASE_URL, { max: 2, name: 'admin' });
// no sign-in throttle: the CLI signs nobody in
const accounts = new Accounts({ pool });
try {
  await migrate(pool);
  const result = await run(pool, accounts, command, rest);
  if (command === 'revoke-key' || command === 'remove-origin' || command === 'add-origin' || command === 'set-limits') {
    await announceInvalidation(config, config.NATS_PREFIX, (result as { environmentId: string }).environmentId);
  }
  process.stdout.write(`${JSON.stringify(result, null, rest.includes('--json') ? 0 : 2)}\n`);
} catch (error) {
  // what the operator got wrong (an unknown id, a taken name, a short password) is a usage error
  const usage = error instanceof UsageError || (isServiceError(error) && ['invalid_request', 'not_found'].includes(error.code));
  process.exitCode = usage ? 64 : 1;
  process.stderr.write(`${usage ? `${(error as Error).message}\n${USAGE}` : String(error)}\n`);
} finally {
  await pool.end();
}
