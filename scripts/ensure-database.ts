import pg from 'pg';

/** Creates the database named in `url` if the server answers but the database does not exist. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`create database "${name.replaceAll('"', '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created by a concurrent starter
      });
    }
  } finally {
    await client.end();
  }
}
