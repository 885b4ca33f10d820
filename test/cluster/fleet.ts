/**
 * The service's processes of the cluster test (production.cluster.ts) and what it asks of them:
 * the fleet (start, drain-and-stop, start again with the same settings and ports, remove),
 * HAProxy's view of the gateways and which channel-nodes hold the partition locks.
 */
import assert from 'node:assert/strict';
import type { Pool } from '@rtm/db';
import { startProcess, waitReady, type ProcessKind, type RunningProcess } from '../helpers/cluster.ts';
import type { Balancer } from './infra.ts';

const PARTITION_LOCKS = 735_111;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `probe` holds (a throw counts as not yet); how long that took, in ms. */
export async function until(what: string, probe: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await Promise.resolve(probe()).catch(() => false)) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`${what}: not true after ${limitMs} ms`);
    await sleep(50);
  }
}

export interface Member {
  kind: ProcessKind;
  slot: number;
  env: Record<string, string>;
  proc: RunningProcess;
}

export class Fleet {
  readonly members: Member[] = [];
  readonly everStarted: RunningProcess[] = [];
  readonly env: Record<string, string>;
  constructor(env: Record<string, string>) {
    this.env = env;
  }

  async add(kind: ProcessKind, slot: number, extra: Record<string, string> = {}): Promise<Member> {
    const env = { ...this.env, NODE_NAME: `${kind}-${slot}`, ...extra };
    const member: Member = { kind, slot, env, proc: await this.launch(kind, env) };
    this.members.push(member);
    return member;
  }

  private async launch(kind: ProcessKind, env: Record<string, string>): Promise<RunningProcess> {
    const proc = await startProcess(kind, env, { readyTimeoutMs: 60_000 });
    this.everStarted.push(proc);
    await waitReady(proc, 60_000);
    return proc;
  }

  of(kind: ProcessKind): Member[] {
    return this.members.filter((m) => m.kind === kind);
  }

  /** SIGTERM, wait for the drain to end (exit 0), start again with the same settings and ports. */
  async stop(member: Member): Promise<void> {
    const code = await member.proc.stop();
    assert.equal(code, 0, `${member.proc.name} drained and exited 0 on SIGTERM:\n${member.proc.output.slice(-20).join('\n')}`);
  }

  async start(member: Member): Promise<void> {
    member.proc = await this.launch(member.kind, member.env);
  }

  async remove(member: Member): Promise<void> {
    await this.stop(member);
    this.members.splice(this.members.indexOf(member), 1);
  }

  killAll(): Promise<unknown> {
    return Promise.all(this.everStarted.map((proc) => proc.kill()));
  }
}

/** Whether HAProxy has these gateways up in both backends (each checks on its own, so one may lag). */
export async function gatewaysUp(balancer: Balancer, names: string[]): Promise<boolean> {
  for (const backend of ['control', 'realtime']) {
    const servers = await balancerServers(balancer, backend);
    if (!names.every((name) => servers.get(name)?.status === 'UP')) return false;
  }
  return true;
}

/** HAProxy's view of a backend: sessions and status per gateway. */
export async function balancerServers(balancer: Balancer, backend: string): Promise<Map<string, { status: string; sessions: number }>> {
  const csv = await (await fetch(balancer.statsUrl)).text();
  const lines = csv.split('\n');
  const header = lines[0]!.replace(/^# /, '').split(',');
  const col = (name: string) => header.indexOf(name);
  const servers = new Map<string, { status: string; sessions: number }>();
  for (const line of lines.slice(1)) {
    const fields = line.split(',');
    if (fields[col('pxname')] !== backend || ['BACKEND', 'FRONTEND'].includes(fields[col('svname')]!)) continue;
    servers.set(fields[col('svname')]!, { status: fields[col('status')]!, sessions: Number(fields[col('scur')]) });
  }
  return servers;
}

/** Which channel-node sessions hold partition locks, and how many each. */
export async function partitionHolders(pool: Pool): Promise<{ held: number; perHolder: number[] }> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from pg_locks l
     where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = $1::int8::oid
       and l.database = (select oid from pg_database where datname = current_database())
     group by l.pid`,
    [PARTITION_LOCKS],
  );
  const perHolder = rows.map((r) => r.n).sort((a, b) => a - b);
  return { held: perHolder.reduce((a, b) => a + b, 0), perHolder };
}
