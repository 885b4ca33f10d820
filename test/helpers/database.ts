import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { createPool, migrate, type Pool } from '@rtm/db';

const SERVER_URL = process.env.TEST_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432';
const MIGRATIONS = new URL('../../libs/db/migrations/', import.meta.url);

function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS).sort()) hash.update(file).update(readFileSync(new URL(file, MIGRATIONS)));
  return `rtm_template_${hash.digest('hex').slice(0, 12)}`;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${SERVER_URL}/postgres` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The migrated template database, made once per migration set (test files race: a lock decides). */
async function ensureTemplate(): Promise<string> {
  const name = templateName();
  await admin(async (client) => {
    await client.query('select pg_advisory_lock(7351002)');
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount) return;
      await client.query(`create database ${name}`);
      const pool = createPool(`${SERVER_URL}/${name}`, { max: 2, name: 'test-template' });
      try {
        await migrate(pool);
      } finally {
        await pool.end();
      }
    } finally {
      await client.query('select pg_advisory_unlock(7351002)');
    }
  });
  return name;
}

export interface TestDatabase {
  url: string;
  name: string;
  pool: Pool;
}

/** A fresh database cloned from the migrated template; dropped when the test (file) ends. */
export async function createTestDatabase(t: { after(fn: () => Promise<void>): void }): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `rtm_test_${randomBytes(6).toString('hex')}`;
  await admin(async (client) => {
    // cloning needs the template to have no other sessions; retry briefly if a racer is connected
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${name} template ${template}`);
        return;
      } catch (error) {
        if (attempt > 50 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  const url = `${SERVER_URL}/${name}`;
  const pool = createPool(url, { max: 5, name: 'test' });
  t.after(async () => {
    await pool.end();
    await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });
  return { url, name, pool };
}

/** An empty database (no migrations), dropped when the test (file) ends: for migration tests. */
export async function createEmptyDatabase(t: { after(fn: () => Promise<void>): void }): Promise<{ url: string; name: string }> {
  const name = `rtm_empty_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  t.after(async () => {
    await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });
  return { url: `${SERVER_URL}/${name}`, name };
}
