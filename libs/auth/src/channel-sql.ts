/**
 * The parts of the channel rule (`decide`, permissions.ts) that Postgres holds, written as SQL
 * once: bans, and a channel's namespace and effective access. The gateway reads a standing with
 * them (libs/edge/src/access/channel-access.ts); the channel-node filters mentions with them
 * inside its commit (apps/channel-node/src/commit-sql.ts).
 */

/**
 * The ban condition. A ban is live until its `expires_at` (none: for ever); it keeps a user out
 * of a channel when it names that channel or is environment-wide (`channel_id` '', ENVIRONMENT_WIDE
 * in the gateway's moderation.ts).
 */
export function liveBanSql(alias = ''): string {
  const column = alias ? `${alias}.expires_at` : 'expires_at';
  return `(${column} is null or ${column} > now())`;
}

/** `bans b where …`: the live bans (aliased `b`) that keep the SQL expression `user` out of `channel`. */
export function bansBarringSql(environment: string, user: string, channel: string): string {
  return `bans b where b.environment_id = ${environment} and b.user_id = ${user} and b.channel_id in ('', ${channel}) and ${liveBanSql('b')}`;
}

/**
 * The namespace of `channel` (a jsonb object, or null when none matches) among `namespaces` (a
 * jsonb expression: the deployed configuration's `namespaces`): the longest prefix the channel id
 * starts with, as resolveNamespace.
 */
export function namespaceOfSql(namespaces: string, channel: string): string {
  return `(select ns from jsonb_array_elements(case when jsonb_typeof(${namespaces}) = 'array' then ${namespaces} else '[]'::jsonb end) ns
           where jsonb_typeof(ns -> 'prefix') = 'string' and starts_with(${channel}, ns ->> 'prefix')
           order by length(ns ->> 'prefix') desc limit 1)`;
}

/**
 * Whether `user` may read `channel` as far as the user goes (not a token: capabilities narrow a
 * token and are not known here): no live ban, and membership when the channel's effective access
 * (`own` else the namespace's else `environmentDefault`) is `members`. `namespace` is the
 * expression namespaceOfSql gives. A user id with the shape of a minted anonymous id (`anon_…`)
 * also needs the namespace to admit anonymous readers.
 */
export function userReadsChannelSql(p: {
  environment: string;
  user: string;
  channel: string;
  own: string;
  namespace: string;
  environmentDefault: string;
}): string {
  // "offset 0": each check stays a lookup by its keys for the row at hand; without it a generic
  // plan may hash the whole table (every tenant's bans) once per statement instead
  return `(not exists (select 1 from ${bansBarringSql(p.environment, p.user, p.channel)} offset 0)
     and (coalesce(${p.own}, ${p.namespace} ->> 'access', ${p.environmentDefault}) <> 'members'
          or exists (select 1 from memberships m
                     where m.environment_id = ${p.environment} and m.channel_id = ${p.channel} and m.user_id = ${p.user} offset 0))
     and (not starts_with(${p.user}, 'anon_') or coalesce(${p.namespace} -> 'anonymous' -> 'subscribe', 'true'::jsonb) <> 'false'::jsonb))`;
}
