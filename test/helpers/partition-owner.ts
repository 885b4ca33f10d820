import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { partitionOf } from '@rtm/bus';
import type { Cluster, RunningProcess } from './cluster.ts';

const PARTITION_LOCKS = 735_111;

/**
 * The channel-node that owns a channel right now: the Postgres session holding the partition's
 * advisory lock is matched, by its client TCP port, to the socket of one of the cluster's
 * channel-node processes (Linux /proc). Undefined while nobody owns the partition.
 */
export async function ownerOf(cluster: Cluster, environmentId: string, channelId: string, partitions = 32): Promise<RunningProcess | undefined> {
  const partition = partitionOf(environmentId, channelId, partitions);
  const { rows } = await cluster.db.pool.query<{ client_port: number }>(
    `select a.client_port from pg_locks l join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = $1::int8::oid and l.objid = $2::int8::oid
       and l.database = (select oid from pg_database where datname = current_database())`,
    [PARTITION_LOCKS, partition],
  );
  const port = rows[0]?.client_port;
  if (port === undefined) return undefined;
  const inodes = socketInodesOfPort(port);
  return cluster.channelNodes.find((node) => node.child.exitCode === null && ownsAny(node.child.pid!, inodes));
}

/** Inodes of the TCP sockets whose local port is `port`. */
function socketInodesOfPort(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (!local) continue;
      if (parseInt(local.split(':')[1]!, 16) === port) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

function ownsAny(pid: number, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match && inodes.has(match[1]!)) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}
