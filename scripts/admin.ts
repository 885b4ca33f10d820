/**
 * Operator CLI (the dashboard's routes are out of scope). Examples:
 *   npm run --silent admin -- create-environment --org acme --project chat --env dev --json
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
import { createEnvironment, hashKey, insertKey, type KeyKind } from '@rtm/auth';
import { connectBus, subjects, type NatsSettings } from '@rtm/bus';
import { deployLimits, encodeInvalidation, LIMIT_NAMES } from '@rtm/limits';
import { LimitOverrides } from '@rtm/schemas';

const USAGE = `usage: admin <command> [options]
  create-environment --org NAME --project NAME --env NAME [--json]
  list-environments [--json]
  create-key --env ENV_ID --kind secret|publishable [--json]
  revoke-key (--key KEY | --id KEY_ID)
  add-origin --env ENV_ID --origin ORIGIN
  remove-origin --env ENV_ID --origin ORIGIN
  set-limits --env ENV_ID [--set NAME=VALUE]...   (replaces every override; names: ${LIMIT_NAMES.join(', ')})`;

class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

async function announceInvalidation(nats: NatsSettings, prefix: string, environmentId: string): Promise<void> {
  try {
    const nc = await Promise.race([
      connectBus(nats, 'admin'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000)),
    ]);
    nc.publish(subjects(prefix).invalidate, encodeInvalidation(environmentId));
    await nc.drain();
  } catch {
    process.stderr.write('note: NATS not reachable; gateways pick the change up within their cache time\n');
  }
}

function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new UsageError(`--origin "${origin}" is not a URL origin like https://app.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--origin must be http(s)');
  return url.origin.toLowerCase();
}

async function run(pool: Pool, command: string | undefined, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
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
      return createEnvironment(pool, names).catch((error: { code?: string }) => {
        if (error.code === '23505') {
          throw new UsageError(`environment "${names.environment}" already exists in project "${names.project}"`);
        }
        throw error;
      });
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
      const exists = await pool.query('select 1 from environments where id = $1', [environmentId]);
      if (exists.rowCount === 0) throw new UsageError(`no environment ${environmentId}`);
      return { environmentId, kind, key: await insertKey(pool, environmentId, kind as KeyKind) };
    }
    case 'revoke-key': {
      const result = values.key
        ? await pool.query('update api_keys set revoked_at = now() where key_hash = $1 and revoked_at is null returning id, environment_id', [
            hashKey(values.key),
          ])
        : await pool.query('update api_keys set revoked_at = now() where id = $1 and revoked_at is null returning id, environment_id', [
            required(values, 'id'),
          ]);
      if (result.rowCount === 0) throw new UsageError('no such active key');
      return { revoked: result.rows[0].id, environmentId: result.rows[0].environment_id };
    }
    case 'add-origin': {
      const environmentId = required(values, 'env');
      const origin = normaliseOrigin(required(values, 'origin'));
      await pool.query('insert into allowed_origins (environment_id, origin) values ($1, $2) on conflict do nothing', [
        environmentId,
        origin,
      ]);
      return { environmentId, origin, added: true };
    }
    case 'remove-origin': {
      const environmentId = required(values, 'env');
      const origin = normaliseOrigin(required(values, 'origin'));
      const result = await pool.query('delete from allowed_origins where environment_id = $1 and origin = $2', [
        environmentId,
        origin,
      ]);
      return { environmentId, origin, removed: (result.rowCount ?? 0) > 0 };
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
try {
  await migrate(pool);
  const result = await run(pool, command, rest);
  if (command === 'revoke-key' || command === 'remove-origin' || command === 'add-origin' || command === 'set-limits') {
    await announceInvalidation(config, config.NATS_PREFIX, (result as { environmentId: string }).environmentId);
  }
  process.stdout.write(`${JSON.stringify(result, null, rest.includes('--json') ? 0 : 2)}\n`);
} catch (error) {
  process.exitCode = error instanceof UsageError ? 64 : 1;
  process.stderr.write(`${error instanceof UsageError ? `${error.message}\n${USAGE}` : String(error)}\n`);
} finally {
  await pool.end();
}
