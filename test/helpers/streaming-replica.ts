/**
 * A private Postgres primary and one asynchronous streaming replica of it, from Debian's binaries
 * on free loopback ports in a temporary directory (initdb, pg_basebackup -R, pg_ctl), for tests of
 * reads served by a replica. Both servers and the directory are removed when the test ends.
 * Run as root, the servers run as the `postgres` user, which then owns the directory.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../cluster/infra.ts';

const run = promisify(execFile);

export interface StreamingPair {
  /** `postgres://postgres@127.0.0.1:<port>/rtm` */
  primaryUrl: string;
  replicaUrl: string;
  /** One statement on the replica (a fresh session: `pg_wal_replay_pause()`, reads of what it holds). */
  onReplica<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  onPrimary<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  /** Pauses replay on the replica (it keeps receiving WAL); `resume()` replays what waited. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
}

/** The newest Debian versioned bin directory (or PATH's). */
function binDir(): string {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (existsSync(`/usr/lib/postgresql/${version}/bin/pg_basebackup`)) return `/usr/lib/postgresql/${version}/bin`;
  throw new Error('no Postgres binaries under /usr/lib/postgresql');
}

export async function startStreamingPair(t: { after(fn: () => Promise<void>): void }): Promise<StreamingPair> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'rtm-replica-'));
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asPostgres.length) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const exec = (tool: string, args: string[]) => {
    const [head, ...rest] = [...asPostgres, join(bin, tool), ...args];
    return run(head!, rest, { timeout: 120_000 });
  };
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  // fsync off: nothing here survives a crash of the machine, and the disk is shared
  const options = (port: number) => `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=200 -c fsync=off -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on`;
  const started: string[] = [];
  const pgCtl = (data: string, action: 'start' | 'stop', port?: number) =>
    action === 'start'
      ? exec('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(data, 'server.log'), '-o', options(port!)])
      : exec('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]);
  t.after(async () => {
    for (const data of started) await exec('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', data]).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  await exec('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  started.push(primaryDir);
  await pgCtl(primaryDir, 'start', primaryPort);
  const primaryServer = `postgres://postgres@127.0.0.1:${primaryPort}`;
  await query(`${primaryServer}/postgres`, 'create database rtm');
  // a copy of the primary that follows it (-R writes primary_conninfo and standby.signal)
  await exec('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast']);
  started.push(replicaDir);
  await pgCtl(replicaDir, 'start', replicaPort);

  const primaryUrl = `${primaryServer}/rtm`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/rtm`;
  const onReplica = <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => query<T>(replicaUrl, sql, values);
  const onPrimary = <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => query<T>(primaryUrl, sql, values);
  return {
    primaryUrl,
    replicaUrl,
    onReplica,
    onPrimary,
    pause: () => retried(() => onReplica('select pg_wal_replay_pause()')),
    resume: () => retried(() => onReplica('select pg_wal_replay_resume()')),
    caughtUp: async () => {
      const lsn = (await onPrimary<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn'))[0]!.lsn;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const done = (await onReplica<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]))[0]!.done;
        if (done) return;
        if (Date.now() > deadline) throw new Error('the replica did not catch up within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stopReplica: async () => {
      await pgCtl(replicaDir, 'stop');
    },
    startReplica: async () => {
      await pgCtl(replicaDir, 'start', replicaPort);
    },
  };
}

/** A statement a standby cancelled for a recovery conflict (40001) runs again. */
async function retried(statement: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await statement();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40001' || attempt >= 5) throw error;
    }
  }
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}
