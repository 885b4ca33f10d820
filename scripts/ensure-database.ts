import { LocatingClient } from '@rtm/db';

/**
 * Creates the database named in `url` if the server answers but the database does not exist. With
 * several hosts (libpq's form), on the one that accepts writes.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const shape = /^(postgres(?:ql)?:\/\/[^/?#]*)\/([^?#]*)(.*)$/.exec(url);
  const name = decodeURIComponent(shape?.[2] ?? '');
  if (!shape || !name) return;
  const client = new LocatingClient({ connectionString: `${shape[1]}/postgres${shape[3]}` });
  client.on('error', () => {});
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
