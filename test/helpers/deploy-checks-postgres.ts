/**
 * Checks of Postgres as the files under deploy/ run it (re-exported by deploy-checks.ts): a primary
 * and a standby it replicates to synchronously, and every process's DATABASE_URL reaching the
 * primary wherever it is. Compose: the `postgres` primary (its replication set-up mounted into
 * /docker-entrypoint-initdb.d), a standby made with pg_basebackup by a mounted entrypoint, and
 * DATABASE_URL listing both. Kubernetes: a CloudNativePG Cluster (checked by hand: kubernetes-models
 * has no model for it) with synchronous replication, and DATABASE_URL on its `-rw` Service.
 */
import { parseDatabaseUrl } from '@rtm/config';

// ---------------------------------------------------------------- synchronous_standby_names

/**
 * A synchronous_standby_names value as Postgres parses it (syncrep_gram.y): `a, b`, `2 (a, b)`,
 * `FIRST 2 (a, b)` or `ANY 2 (a, b)`, names bare (letters, digits, `_`, `$`) or double-quoted;
 * undefined where Postgres would refuse the value. `number` is how many must confirm a commit.
 */
export function parseStandbyNames(value: string): { number: number; names: string[] } | undefined {
  const tokens: { kind: 'name' | 'word' | 'num' | 'punct'; text: string }[] = [];
  const token = /\s*(?:"((?:[^"]|"")*)"|([A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*)|(\d+)|([(),*]))/y;
  while (token.lastIndex < value.length && value.slice(token.lastIndex).trim()) {
    const m = token.exec(value);
    if (!m) return undefined;
    if (m[1] !== undefined) tokens.push({ kind: 'name', text: m[1].replace(/""/g, '"') });
    else if (m[2] !== undefined) tokens.push({ kind: /^(any|first)$/i.test(m[2]) ? 'word' : 'name', text: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: 'num', text: m[3] });
    else tokens.push(m[4] === '*' ? { kind: 'name', text: '*' } : { kind: 'punct', text: m[4]! });
  }
  if (tokens.length === 0) return { number: 0, names: [] };
  let i = 0;
  let number = 1;
  const list = (): string[] | undefined => {
    const names: string[] = [];
    for (;;) {
      const t = tokens[i++];
      if (!t || (t.kind !== 'name' && t.kind !== 'num')) return undefined;
      names.push(t.text);
      if (tokens[i]?.text !== ',') return names;
      i++;
    }
  };
  const counted = tokens[0]!.kind === 'word' || (tokens[0]!.kind === 'num' && tokens[1]?.text === '(');
  if (counted) {
    if (tokens[0]!.kind === 'word') i++;
    if (tokens[i]?.kind !== 'num') return undefined;
    number = Number(tokens[i++]!.text);
    if (tokens[i++]?.text !== '(') return undefined;
  }
  const names = list();
  if (!names || (counted && tokens[i++]?.text !== ')') || i !== tokens.length) return undefined;
  return { number, names };
}

/** Whether `names` lists `applicationName` (Postgres compares without case; `*` is any standby). */
const lists = (names: string[], applicationName: string) => names.some((n) => n === '*' || n.toLowerCase() === applicationName.toLowerCase());

/** A commit returns only once the synchronous standbys have flushed it: `on` (the default) or `remote_apply`. */
function synchronousCommitProblem(where: string, value: string | undefined): string[] {
  if (value === undefined || value === 'on' || value === 'remote_apply') return [];
  return [
    `${where}: synchronous_commit=${value}: a commit would return before the standby has flushed it (the service acknowledges a write once its commit returns)`,
  ];
}

// ---------------------------------------------------------------- Compose

type Service = Record<string, any>;

/** `-c name=value` settings of a postgres command line. */
function settings(service: Service): Record<string, string> {
  const words: string[] = Array.isArray(service.command) ? service.command : String(service.command ?? '').split(/\s+/);
  const found: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const setting = words[i] === '-c' ? words[++i] : /^--([a-z_]+=.*)$/.exec(words[i]!)?.[1];
    const m = setting ? /^([a-z_]+)=(.*)$/.exec(setting) : null;
    if (m) found[m[1]!] = m[2]!;
  }
  return found;
}

/** The files under deploy/ a service mounts, by where they appear in the container. */
function mounts(service: Service): Record<string, string> {
  const found: Record<string, string> = {};
  for (const volume of service.volumes ?? []) {
    const [source, target] = typeof volume === 'string' ? volume.split(':') : [volume.source, volume.target];
    if (source?.startsWith('./') && target) found[target] = source.slice(2);
  }
  return found;
}

/** The command lines of a shell script that run `program` (comments dropped, continuation lines joined). */
function invocations(script: string, program: string): string[] {
  return script
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.split(/\s+/)[0] === program);
}

/** The `${VARIABLE...}` a Compose value is interpolated from. */
const interpolated = (value: unknown) => /^\$\{([A-Z_][A-Z0-9_]*)/.exec(String(value ?? ''))?.[1];

/**
 * The primary, its synchronous standby and DATABASE_URL in compose.yaml. `readFile` reads a file
 * under deploy/ (undefined: none), so a test can hand the checks a broken mounted script.
 */
export function checkComposePostgres(services: Record<string, Service>, readFile: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  const postgres = Object.entries(services).filter(([, s]) => String(s.image).startsWith('postgres'));
  if (postgres.length === 0) return ['compose.yaml: no Postgres'];
  // a standby is a postgres service whose entrypoint copies the primary with pg_basebackup
  const entrypointScript = (service: Service) => {
    const words: string[] = Array.isArray(service.entrypoint) ? service.entrypoint : [];
    const file = words.map((w) => mounts(service)[w]).find(Boolean);
    return file ? readFile(file) : undefined;
  };
  const standbys = postgres.filter(([, s]) => invocations(entrypointScript(s) ?? '', 'pg_basebackup').length > 0);
  const primaries = postgres.filter((entry) => !standbys.includes(entry));
  if (primaries.length !== 1) return [...problems, `compose.yaml: ${primaries.length} Postgres primaries, expected 1`];
  if (standbys.length === 0)
    return [
      ...problems,
      'compose.yaml: no Postgres standby (a postgres service made from the primary with pg_basebackup): an acknowledged write would be on one machine only',
    ];
  const [primaryName, primary] = primaries[0]!;
  const env = primary.environment ?? {};
  const primarySettings = settings(primary);

  // the primary: replication on, its set-up script, synchronous_standby_names from its environment
  if (!['replica', 'logical'].includes(primarySettings.wal_level ?? 'replica'))
    problems.push(`compose.yaml ${primaryName}: wal_level=${primarySettings.wal_level}: no WAL for a standby`);
  if (primarySettings.max_wal_senders !== undefined && Number(primarySettings.max_wal_senders) < standbys.length)
    problems.push(`compose.yaml ${primaryName}: max_wal_senders=${primarySettings.max_wal_senders}: fewer than its standbys`);
  problems.push(...synchronousCommitProblem(`compose.yaml ${primaryName}`, primarySettings.synchronous_commit));
  if (primarySettings.synchronous_standby_names !== undefined) {
    problems.push(
      `compose.yaml ${primaryName}: synchronous_standby_names on the command line, where ALTER SYSTEM cannot clear it in an emergency (the set-up script puts it into postgresql.auto.conf)`,
    );
  }
  const initFile = Object.entries(mounts(primary)).find(([target]) => target.startsWith('/docker-entrypoint-initdb.d/'))?.[1];
  const init = initFile ? readFile(initFile) : undefined;
  if (init === undefined) problems.push(`compose.yaml ${primaryName}: mounts no replication set-up into /docker-entrypoint-initdb.d`);
  else {
    const needs: [RegExp, string][] = [
      [/CREATE ROLE[^\n]*\bREPLICATION\b/, 'creates no role WITH REPLICATION'],
      [/--set=user="\$REPLICATION_USER"/, 'does not name the role REPLICATION_USER'],
      [/pg_create_physical_replication_slot\(:'slot'/, 'creates no physical replication slot'],
      [/--set=slot="\$REPLICATION_SLOT"/, 'does not name the slot REPLICATION_SLOT'],
      [/hba="host replication \$REPLICATION_USER all \S+"\n[^\n]*>> "\$PGDATA\/pg_hba\.conf"/, 'lets no replication connection in through pg_hba.conf'],
      [/ALTER SYSTEM SET synchronous_standby_names = :'standby_names'/, 'does not set synchronous_standby_names'],
      [/--set=standby_names="\$SYNCHRONOUS_STANDBY_NAMES"/, 'does not take synchronous_standby_names from SYNCHRONOUS_STANDBY_NAMES'],
    ];
    for (const [pattern, problem] of needs) if (!pattern.test(init)) problems.push(`compose.yaml ${primaryName}: ${initFile} ${problem}`);
  }
  const slot = String(env.REPLICATION_SLOT ?? '');
  if (!/^[a-z0-9_]+$/.test(slot))
    problems.push(`compose.yaml ${primaryName}: REPLICATION_SLOT ${JSON.stringify(slot)} is not a slot name (lower-case letters, digits and _)`);
  const standbyNames = parseStandbyNames(String(env.SYNCHRONOUS_STANDBY_NAMES ?? ''));
  if (!standbyNames) {
    problems.push(
      `compose.yaml ${primaryName}: SYNCHRONOUS_STANDBY_NAMES ${JSON.stringify(env.SYNCHRONOUS_STANDBY_NAMES)} is not a synchronous_standby_names Postgres takes (a name other than letters, digits, _ and $ must be double-quoted)`,
    );
  } else if (standbyNames.number < 1 || standbyNames.names.length === 0) {
    problems.push(
      `compose.yaml ${primaryName}: SYNCHRONOUS_STANDBY_NAMES names no standby: replication is asynchronous, an acknowledged write may be on one machine only`,
    );
  }

  // each standby: made from this primary through its slot, named in synchronous_standby_names
  for (const [name, standby] of standbys) {
    const where = `compose.yaml ${name}`;
    const script = entrypointScript(standby)!;
    const own = standby.environment ?? {};
    const standbySettings = settings(standby);
    const copy = invocations(script, 'pg_basebackup').join('\n');
    if (!/(--write-recovery-conf|\s-R)(\s|$)/.test(copy))
      problems.push(`${where}: pg_basebackup without -R: the copy would start as a second primary, not a standby`);
    if (!/(--slot=|\s-S\s*)"\$REPLICATION_SLOT"/.test(copy)) problems.push(`${where}: pg_basebackup does not stream through the slot REPLICATION_SLOT`);
    if (!/if \[ ! -s "\$PGDATA\/PG_VERSION" \]/.test(script)) problems.push(`${where}: copies the primary even when its data directory is not empty`);
    if (!/^exec docker-entrypoint\.sh "\$@"$/m.test(script))
      problems.push(`${where}: does not hand over to the image's entrypoint (exec docker-entrypoint.sh "$@")`);
    if (own.PRIMARY_HOST !== primaryName) problems.push(`${where}: PRIMARY_HOST ${own.PRIMARY_HOST} is not the primary ${primaryName}`);
    if (own.REPLICATION_SLOT !== env.REPLICATION_SLOT)
      problems.push(`${where}: REPLICATION_SLOT ${own.REPLICATION_SLOT} is not the slot ${primaryName} creates (${env.REPLICATION_SLOT})`);
    if (own.REPLICATION_USER !== env.REPLICATION_USER)
      problems.push(`${where}: REPLICATION_USER ${own.REPLICATION_USER} is not the role ${primaryName} creates (${env.REPLICATION_USER})`);
    if (!interpolated(own.PGPASSWORD) || interpolated(own.PGPASSWORD) !== interpolated(env.REPLICATION_PASSWORD))
      problems.push(`${where}: PGPASSWORD is not the replication role's password (${env.REPLICATION_PASSWORD})`);
    if (standby.depends_on?.[primaryName]?.condition !== 'service_healthy') problems.push(`${where}: does not wait for ${primaryName} to be healthy`);
    if (Number(standbySettings.max_connections ?? 100) < Number(primarySettings.max_connections ?? 100)) {
      problems.push(
        `${where}: max_connections ${standbySettings.max_connections ?? 100} below the primary's ${primarySettings.max_connections ?? 100}: a hot standby does not start`,
      );
    }
    // pg_basebackup -R writes a primary_conninfo without application_name: the walreceiver
    // then streams under cluster_name, else as "walreceiver"
    const applicationName = standbySettings.cluster_name ?? 'walreceiver';
    if (standbyNames && standbyNames.number >= 1 && !lists(standbyNames.names, applicationName)) {
      problems.push(
        `${where}: ${primaryName}'s synchronous_standby_names ${JSON.stringify(env.SYNCHRONOUS_STANDBY_NAMES)} does not name its application_name ${applicationName}: commits would not wait for it`,
      );
    }
  }

  // every process: DATABASE_URL lists the primary and every standby, and asks for the writable one
  const servers = [primaryName, ...standbys.map(([name]) => name)];
  for (const [name, service] of Object.entries(services).filter(([, s]) => String(s.image).startsWith('rtm'))) {
    const url = service.environment?.DATABASE_URL;
    if (url === undefined) continue;
    let address;
    try {
      // ${POSTGRES_PASSWORD:?…} is Compose's, not the URL's
      address = parseDatabaseUrl(String(url).replace(/\$\{[^}]*\}/g, 'secret'));
    } catch (error) {
      problems.push(`compose.yaml ${name}: DATABASE_URL ${(error as Error).message}`);
      continue;
    }
    const listed = address.hosts.map((h) => `${h.host}:${h.port}`);
    const missing = servers.filter((server) => !listed.includes(`${server}:5432`));
    if (missing.length)
      problems.push(
        `compose.yaml ${name}: DATABASE_URL lists ${listed.join(',')}, not ${missing.join(', ')}: after a promotion the processes would not find the new primary`,
      );
    if (!['read-write', 'primary'].includes(address.sessionAttrs))
      problems.push(
        `compose.yaml ${name}: DATABASE_URL's target_session_attrs=${address.sessionAttrs}: the processes write, they need the server that accepts writes`,
      );
  }
  return problems;
}

// ---------------------------------------------------------------- CloudNativePG

/**
 * The CloudNativePG Clusters among deploy/k8s's documents, against what the processes are told:
 * config.yaml's instructions create the Secret with DATABASE_URL (and the one the Cluster reads
 * the owner's password from), so DATABASE_URL is read from there.
 */
export function checkCnpgClusters(clusters: any[], configText: string, namespace: string | undefined): string[] {
  if (clusters.length !== 1) return [`k8s: ${clusters.length} CloudNativePG Clusters, expected 1 (Postgres for the processes)`];
  const cluster = clusters[0];
  const name = String(cluster.metadata?.name);
  const where = `k8s Cluster ${name}`;
  const spec = cluster.spec ?? {};
  const problems: string[] = [];
  const instances = spec.instances;
  if (!Number.isInteger(instances) || instances < 2) problems.push(`${where}: ${instances} instance(s): no standby to fail over to or to hold a second copy`);
  if (spec.minSyncReplicas !== undefined || spec.maxSyncReplicas !== undefined) {
    problems.push(
      `${where}: minSyncReplicas/maxSyncReplicas (deprecated) are dropped by the operator when too few standbys are ready, which lets commits return unreplicated: use postgresql.synchronous`,
    );
  }
  const sync = spec.postgresql?.synchronous;
  if (!sync) problems.push(`${where}: synchronous replication off (no postgresql.synchronous): an acknowledged write may be on one machine only`);
  else {
    if (!['any', 'first'].includes(sync.method)) problems.push(`${where}: postgresql.synchronous.method ${sync.method} is not any or first`);
    if (!Number.isInteger(sync.number) || sync.number < 1)
      problems.push(`${where}: postgresql.synchronous.number ${sync.number}: no standby confirms a commit`);
    // a commit needs `number` standbys up: keep one spare, or any standby's restart stops writes
    else if (Number.isInteger(instances) && sync.number > instances - 2) {
      problems.push(
        `${where}: postgresql.synchronous.number ${sync.number} with ${instances} instances: every standby must be up for a commit, so one standby's restart (a drain, an upgrade) stops writes`,
      );
    }
    if (sync.dataDurability === 'preferred') problems.push(`${where}: dataDurability preferred: without ready standbys commits return unreplicated`);
  }
  problems.push(...synchronousCommitProblem(where, spec.postgresql?.parameters?.synchronous_commit));
  if (!spec.storage?.size) problems.push(`${where}: no storage.size`);
  const initdb = spec.bootstrap?.initdb ?? {};
  if (!initdb.database || !initdb.owner) problems.push(`${where}: bootstrap.initdb names no database and owner`);
  if (cluster.metadata?.namespace !== namespace) problems.push(`${where}: in namespace ${cluster.metadata?.namespace}, the processes in ${namespace}`);

  // config.yaml's instructions: `kubectl … create secret generic …` lines in its comments
  const instructions = configText
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#\s?/, ''))
    .join('\n')
    .replace(/\\\n\s*/g, ' ');
  const secretName = initdb.secret?.name;
  const ownerSecret = secretName ? new RegExp(`create secret generic ${secretName}\\b([^\\n]*)`).exec(instructions)?.[1] : undefined;
  if (!secretName)
    problems.push(
      `${where}: bootstrap.initdb.secret names no Secret for the owner's password (the operator would make one up, which DATABASE_URL does not carry)`,
    );
  else if (!ownerSecret?.includes('--type=kubernetes.io/basic-auth') || !ownerSecret.includes(`--from-literal=username=${initdb.owner}`)) {
    problems.push(`${where}: config.yaml's instructions create no basic-auth Secret ${secretName} with username=${initdb.owner}`);
  }
  const url = /--from-literal=DATABASE_URL=(\S+)/.exec(instructions)?.[1]?.replace(/['"]/g, '');
  if (!url) return [...problems, `${where}: config.yaml's instructions give no DATABASE_URL`];
  let address;
  try {
    address = parseDatabaseUrl(url);
  } catch (error) {
    return [...problems, `config.yaml: DATABASE_URL ${(error as Error).message}`];
  }
  // one host is enough: the -rw Service follows the primary through every fail-over
  const rw = new RegExp(`^${name}-rw(\\.${namespace}(\\.svc(\\.cluster\\.local)?)?)?$`);
  if (address.hosts.length !== 1 || !rw.test(address.hosts[0]!.host) || address.hosts[0]!.port !== 5432) {
    problems.push(
      `config.yaml: DATABASE_URL's host ${address.hosts.map((h) => `${h.host}:${h.port}`).join(',')} is not ${name}-rw:5432, the Service that follows the primary`,
    );
  }
  const parsed = new URL(address.hosts[0]!.url);
  if (decodeURIComponent(parsed.username) !== initdb.owner)
    problems.push(`config.yaml: DATABASE_URL's user ${parsed.username} is not the Cluster's owner ${initdb.owner}`);
  if (parsed.pathname.slice(1) !== initdb.database)
    problems.push(`config.yaml: DATABASE_URL's database ${parsed.pathname.slice(1)} is not the Cluster's ${initdb.database}`);
  if (!['read-write', 'primary'].includes(address.sessionAttrs))
    problems.push(`config.yaml: DATABASE_URL's target_session_attrs=${address.sessionAttrs}: the processes need the server that accepts writes`);
  return problems;
}
