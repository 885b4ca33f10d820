/**
 * Which listed Postgres server a session may use: the pure rules behind PrimaryLocator.
 *
 * `read-write` (and `primary`): a server that is not in recovery and not read-only, and never one
 * on an older timeline than this process has seen for the same cluster. Why the timeline: a
 * promotion starts a new timeline, so an old primary that comes back after its standby was
 * promoted is on an older one. If it answers read-write (restarted alone, or before its
 * orchestrator demotes it), it is refused here. When several listed servers accept writes, the
 * newest timeline wins; a tie goes to the first listed.
 * `read-only`: a server in recovery or read-only; `standby`: in recovery; `prefer-standby`: a
 * standby if one answers, else any; `any`: the first that answers.
 */
import type { SessionAttrs } from '@rtm/config';

/** What a server says of itself (SERVER_STATE_SQL). */
export interface ServerState {
  /** In recovery: a standby. */
  standby: boolean;
  /** `transaction_read_only` is on (a standby, or a primary set read-only). */
  readOnly: boolean;
  /** The timeline a primary writes on; undefined on a standby. */
  timeline: number | undefined;
  /** The cluster's system identifier (shared by a primary and its standbys); undefined if not readable. */
  system: string | undefined;
}

/**
 * One round trip, run on every new session and by each search. `pg_walfile_name` of the current
 * position names the timeline a primary writes on now (the checkpoint's timeline lags a
 * promotion). `pg_control_system` may be closed to the role (some managed services): then the
 * state is read without it (readServerState).
 */
const stateSql = (system: string) => `select pg_is_in_recovery() as standby,
       current_setting('transaction_read_only') = 'on' as read_only,
       case when pg_is_in_recovery() then null else substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) end as wal_file,
       ${system} as system`;
const SERVER_STATE_SQL = stateSql('(select system_identifier::text from pg_control_system())');
const SERVER_STATE_SQL_WITHOUT_SYSTEM = stateSql('null::text');

/** insufficient_privilege */
const NOT_ALLOWED = '42501';

/** What the server behind `client` says of itself. */
export async function readServerState(client: { query(sql: string): Promise<{ rows: any[] }> }): Promise<ServerState> {
  const { rows } = await client.query(SERVER_STATE_SQL).catch((error: { code?: string }) => {
    if (error?.code !== NOT_ALLOWED) throw error;
    return client.query(SERVER_STATE_SQL_WITHOUT_SYSTEM);
  });
  return serverState(rows[0]);
}

export function serverState(row: { standby: boolean; read_only: boolean; wal_file: string | null; system: string | null }): ServerState {
  return {
    standby: row.standby,
    readOnly: row.read_only,
    timeline: row.wal_file === null ? undefined : Number.parseInt(row.wal_file, 16),
    system: row.system ?? undefined,
  };
}

/** The newest timeline seen per cluster (system identifier; '' when not readable). */
export type Timelines = Map<string, number>;

/** Why a server does not fit, or undefined when it does. */
export function refusal(state: ServerState, attrs: SessionAttrs, newest: Timelines): 'read_only' | 'writable' | 'older_timeline' | undefined {
  switch (attrs) {
    case 'any':
    case 'prefer-standby':
      return undefined;
    case 'read-only':
      return state.readOnly || state.standby ? undefined : 'writable';
    case 'standby':
      return state.standby ? undefined : 'writable';
    case 'read-write':
    case 'primary':
      if (state.standby || state.readOnly) return 'read_only';
      return state.timeline !== undefined && state.timeline < (newest.get(state.system ?? '') ?? 0) ? 'older_timeline' : undefined;
  }
}

/** Records a writable server's timeline as seen. */
export function noteTimeline(state: ServerState, newest: Timelines): void {
  if (state.standby || state.timeline === undefined) return;
  const key = state.system ?? '';
  if (state.timeline > (newest.get(key) ?? 0)) newest.set(key, state.timeline);
}

/**
 * The index of the server to use among `states` (in list order; undefined: did not answer), or
 * undefined when none fits.
 */
export function chooseServer(states: ReadonlyArray<ServerState | undefined>, attrs: SessionAttrs, newest: Timelines): number | undefined {
  // a search sees every answering primary first: the newest timeline among them is the bar
  const seen: Timelines = new Map(newest);
  for (const state of states) if (state) noteTimeline(state, seen);
  const fitting = states
    .map((state, index) => ({ state, index }))
    .filter((c): c is { state: ServerState; index: number } => c.state !== undefined && refusal(c.state, attrs, seen) === undefined);
  if (fitting.length === 0) return undefined;
  if (attrs === 'prefer-standby') return (fitting.find((c) => c.state.standby) ?? fitting[0]!).index;
  if (attrs === 'read-write' || attrs === 'primary') {
    return fitting.reduce((best, c) => ((c.state.timeline ?? 0) > (best.state.timeline ?? 0) ? c : best)).index;
  }
  return fitting[0]!.index;
}
