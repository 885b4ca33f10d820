import { configOrExit, loadBaseConfig } from '@rtm/config';
import { createPool, migrate } from '@rtm/db';
import { ensureDatabase } from './ensure-database.ts';

const config = configOrExit(loadBaseConfig);
await ensureDatabase(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL, { max: 2, name: 'migrate' });
try {
  const applied = await migrate(pool);
  process.stdout.write(applied.length ? `applied migrations ${applied.join(', ')}\n` : 'database is up to date\n');
} finally {
  await pool.end();
}
