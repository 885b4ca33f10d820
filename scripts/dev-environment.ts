import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createEnvironment, hashKey, type CreatedEnvironment } from '@rtm/auth';
import { findUserByEmail, generatePassword, hashPassword, insertUser, recordAudit, setPasswordHash, verifyPassword } from '@rtm/accounts';
import { withTransaction, type Pool } from '@rtm/db';

/** The dashboard login `npm start` makes for the developer. */
export interface DevLogin {
  email: string;
  password: string;
}

export const DEV_EMAIL = 'dev@localhost';

/**
 * What the state file (git-ignored, .data/dev-environment.json) keeps between starts: the dev
 * environment's ids and keys, and the dev login. Keys and passwords are shown only once when
 * made, so this file is how they are shown again on later starts. It also records where the
 * running start's gateway listens (`running`).
 */
type State = Partial<CreatedEnvironment> & { login?: Partial<DevLogin>; running?: RunningRecord };

/**
 * Where the running `npm start` serves, for tools that follow it (`npm run example:chat`,
 * examples/chat/settings.ts): the supervisor's pid, so that a record left by a start that has
 * ended is recognised as stale, and the URLs of its gateway's two listeners.
 */
export interface RunningRecord {
  pid: number;
  controlUrl: string;
  realtimeUrl: string;
}

/**
 * The environment `npm start` hands to a developer. A file whose environment or keys no longer
 * exist (a reset database, a revoked key) is replaced by a new environment.
 */
export async function ensureDevEnvironment(pool: Pool, file: string): Promise<{ environment: CreatedEnvironment; created: boolean }> {
  const state = await readState(file);
  const saved = savedEnvironment(state);
  if (saved && (await stillValid(pool, saved))) return { environment: saved, created: false };
  const environment = await createNamed(pool);
  await writeState(file, { ...state, ...environment });
  return { environment, created: true };
}

/**
 * The dashboard login of the dev environment's organization, as owner: the saved one while its
 * password still works, otherwise `dev@localhost` gets a new generated password (made, or reset
 * when the database has the user but the file lost or changed the password), which is saved.
 */
export async function ensureDevLogin(pool: Pool, file: string, organizationId: string): Promise<{ login: DevLogin; created: boolean }> {
  const state = await readState(file);
  const saved = state.login;
  if (typeof saved?.email === 'string' && typeof saved.password === 'string') {
    const user = await findUserByEmail(pool, saved.email);
    if (user && (await verifyPassword(saved.password, user.passwordHash))) {
      await joinAsOwner(pool, organizationId, user.id, user.email);
      return { login: { email: saved.email, password: saved.password }, created: false };
    }
  }
  const login = { email: DEV_EMAIL, password: generatePassword() };
  const passwordHash = await hashPassword(login.password);
  const existing = await findUserByEmail(pool, login.email);
  const userId = existing ? existing.id : (await insertUser(pool, login.email, passwordHash)).id;
  if (existing) await setPasswordHash(pool, existing.id, passwordHash);
  await joinAsOwner(pool, organizationId, userId, login.email);
  await writeState(file, { ...(await readState(file)), login });
  return { login, created: true };
}

/** Records where the gateway of this `npm start` listens (again after each restart of it). */
export async function recordRunning(file: string, running: RunningRecord): Promise<void> {
  await writeState(file, { ...(await readState(file)), running });
}

async function joinAsOwner(pool: Pool, organizationId: string, userId: string, email: string): Promise<void> {
  await withTransaction(pool, async (client) => {
    const joined = await client.query("insert into organization_members (organization_id, user_id, role) values ($1, $2, 'owner') on conflict do nothing", [
      organizationId,
      userId,
    ]);
    if ((joined.rowCount ?? 0) > 0) {
      await recordAudit(
        client,
        { kind: 'system' },
        {
          organizationId,
          action: 'member.added',
          targetType: 'user',
          targetId: userId,
          details: { email, role: 'owner', reason: 'npm start dev login' },
        },
      );
    }
  });
}

async function readState(file: string): Promise<State> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return value && typeof value === 'object' ? (value as State) : {};
  } catch {
    return {};
  }
}

// write then rename: a crash never leaves half a file (and so never loses the only copy of a key)
async function writeState(file: string, state: State): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

function savedEnvironment(state: State): CreatedEnvironment | null {
  const fields = ['organizationId', 'projectId', 'environmentId', 'secretKey', 'publishableKey'] as const;
  if (!fields.every((f) => typeof state[f] === 'string')) return null;
  return Object.fromEntries(fields.map((f) => [f, state[f]])) as unknown as CreatedEnvironment;
}

async function stillValid(pool: Pool, env: CreatedEnvironment): Promise<boolean> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from api_keys
     where environment_id = $1 and revoked_at is null and key_hash = any($2::bytea[])`,
    [env.environmentId, [hashKey(env.secretKey), hashKey(env.publishableKey)]],
  );
  return rows[0]?.n === 2;
}

async function createNamed(pool: Pool): Promise<CreatedEnvironment> {
  const names = { organization: 'dev', project: 'dev' };
  try {
    return await createEnvironment(pool, { ...names, environment: 'dev' });
  } catch (error) {
    // an earlier `dev` environment whose keys were lost: make another one beside it
    if ((error as { code?: string }).code !== '23505') throw error;
    return createEnvironment(pool, { ...names, environment: `dev-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}` });
  }
}
