/**
 * A Postgres URL with one or several hosts, in libpq's form:
 *
 *   postgres://user:password@h1:5432,h2:5433,[::1]:5434/rtm?target_session_attrs=read-write
 *
 * node-postgres takes one host per URL, so the list is split here into one single-host URL per
 * host (user, password, database and every other parameter kept as written), and libpq's
 * `target_session_attrs` is read here rather than passed on. A host without a port takes the
 * `port` parameter's, else 5432. A URL with one host is that host's URL, unchanged.
 */

/** libpq's values; `read-write` and `primary` both mean "accepts writes" here (see docs/operations.md). */
export const SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type SessionAttrs = (typeof SESSION_ATTRS)[number];

export interface DatabaseHost {
  /** The host as written (a name, an IPv4 address, or an IPv6 address without its brackets). */
  host: string;
  port: number;
  /** This host alone, as a URL node-postgres takes. */
  url: string;
}

export interface DatabaseAddress {
  hosts: DatabaseHost[];
  /** `target_session_attrs`, or `fallback` when the URL does not say. */
  sessionAttrs: SessionAttrs;
}

const URL_SHAPE = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/;

/** Throws a plain Error saying what is wrong (the configuration check words it for the operator). */
export function parseDatabaseUrl(url: string, fallback: SessionAttrs = 'read-write'): DatabaseAddress {
  const match = URL_SHAPE.exec(url);
  if (!match) throw new Error('must be a postgres:// or postgresql:// URL');
  const [, scheme, userinfo, hostList, path = '', query = ''] = match;
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  if (attrs !== null && !(SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new Error(`target_session_attrs must be one of ${SESSION_ATTRS.join(', ')}`);
  }
  params.delete('target_session_attrs');
  const defaultPort = params.get('port');
  params.delete('port');
  if (defaultPort !== null && !validPort(defaultPort)) throw new Error(`port ${JSON.stringify(defaultPort)} is not a port number`);
  const auth = userinfo !== undefined ? `${userinfo}@` : '';
  const sessionAttrs = (attrs as SessionAttrs | null) ?? fallback;
  if (!hostList!.includes(',')) {
    // one host (or none: a socket directory in `host=`): node-postgres reads the URL as today,
    // its `port` parameter included
    const kept = new URLSearchParams(query);
    kept.delete('target_session_attrs');
    const only = hostList ? splitHost(hostList, defaultPort ?? '5432') : { host: params.get('host') ?? 'localhost', port: defaultPort ?? '5432' };
    return { hosts: [{ host: only.host, port: Number(only.port), url: `${scheme}://${auth}${hostList}${path}${withQuery(kept)}` }], sessionAttrs };
  }
  const entries = hostList!.split(',');
  if (entries.some((entry) => entry === '')) throw new Error('has an empty host in its host list');
  const hosts = entries.map((entry) => {
    const { host, port } = splitHost(entry, defaultPort ?? '5432');
    return { host, port: Number(port), url: `${scheme}://${auth}${host.includes(':') ? `[${host}]` : host}:${port}${path}${withQuery(params)}` };
  });
  return { hosts, sessionAttrs };
}

const withQuery = (params: URLSearchParams) => (params.size > 0 ? `?${params}` : '');

/** Whether `url` is a URL parseDatabaseUrl takes; the reason when it is not. */
export function databaseUrlProblem(url: string): string | undefined {
  try {
    parseDatabaseUrl(url);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function splitHost(entry: string, defaultPort: string): { host: string; port: string } {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(.*))?$/.exec(entry);
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : entry.split(':').length === 2 ? entry.split(':') : [entry, undefined];
  if (!/^[A-Za-z0-9._%:-]+$/.test(host!) || (!bracketed && host!.includes(':'))) throw new Error(`host ${JSON.stringify(entry)} is not a host name or address`);
  const chosen = port ?? defaultPort;
  if (!validPort(chosen)) throw new Error(`port ${JSON.stringify(chosen)} of ${JSON.stringify(entry)} is not a port number`);
  return { host: decodeURIComponent(host!), port: chosen };
}

function validPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}

/**
 * `url` with `target_session_attrs=<attrs>` added when it names none (kept as written when it
 * does), so a pool's default is in the URL its sessions' locator reads.
 */
export function withSessionAttrs(url: string, attrs: SessionAttrs): string {
  const query = /\?([^#]*)/.exec(url)?.[1];
  if (query !== undefined && new URLSearchParams(query).has('target_session_attrs')) return url;
  return `${url}${query === undefined ? '?' : query === '' ? '' : '&'}target_session_attrs=${attrs}`;
}
