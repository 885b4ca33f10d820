import type pg from 'pg';
import { isConnectionError } from './connection-errors.ts';

/** Runs `fn` in a transaction on one client of `pool`, committing if it resolves. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (error) {
    // a session that broke, or whose server turned read-only, is not put back in the pool
    if (isConnectionError(error)) broken = error as Error;
    else await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release(broken);
  }
}
