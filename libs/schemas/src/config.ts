import { z } from 'zod';
import { IsoTime } from './common.ts';
import { ChannelAccess } from './members.ts';
import { MAX_CONTENT_BYTES } from './channels.ts';
import {
  DEFAULT_LIMITS,
  JOIN_LEAVE_DEFAULT,
  MAX_NAMESPACES,
  PRESENCE_DEFAULT,
  PRESENCE_WEBHOOKS_DEFAULT,
  QUOTA_MAX,
  namespacesProblem,
  type LimitName,
  type QuotaName,
} from '@rtm/rules';

const LIMIT_HELP: Record<LimitName, string> = {
  userPublishesPerSecond: 'Publishes by one user, HTTP and socket together, per second. A publish with mentions costs 1 + one unit per started 10 mentions.',
  secretKeyRequestsPerSecond: 'Requests made with one secret key, per second.',
  anonymousMintsPerKeyPerSecond: 'Anonymous tokens minted with one publishable key, per second.',
  anonymousMintsPerIpPerSecond: 'Anonymous tokens minted with publishable keys from one client IP, per second.',
  environmentMessagesPerSecond: 'Messages published in the environment from every source, per second.',
  socketsPerUser: 'Sockets one user holds open at a time (channel and inbox sockets).',
  socketsPerEnvironment: 'Sockets the environment holds open at a time.',
  notificationsPerUserPerMinute:
    'Notifications stored for one user (mentions and POST /v1/notifications together), per fixed one-minute window; the rest are not stored.',
  userHistoryReadsPerSecond:
    'History read by one user on the realtime edge, in units per second: a page or socket replay costs one unit per 50 messages it may return (at least one).',
  userRosterReadsPerSecond: 'Roster and occupancy reads by one user on the realtime edge, per second.',
  userRetractsPerSecond: 'Retractions by one user on the realtime edge (HTTP and socket frames together), per second.',
  userReactionsPerSecond: 'Reactions added or removed by one user on the realtime edge (HTTP and socket frames together), per second.',
  userModerationsPerSecond: 'Removals, bans and unbans by one moderator on the realtime edge (HTTP and socket frames together), per second.',
  userInboxReadsPerSecond:
    'Inbox read by one user on the realtime edge (GET /v1/inbox and the replays of inbox subscriptions), in units per second: one unit per 50 notifications a page may return (at least one).',
  environmentEdgeReadsPerSecond: 'Units of the six per-user realtime-edge limits above taken by every user of the environment together, per second.',
  userSocketOpensPerSecond: 'Sockets one user opens (channel, inbox and /v1/connect), per second.',
};

const PRESENCE_HELP =
  "Track who is online in the channels: the roster's `online` flag and the occupancy counts. false: nobody is shown online, " +
  'occupancy is refused (403 `forbidden`) and no presence frames are sent.';
const JOIN_LEAVE_HELP =
  'Send presence frames (`{op:"presence", joined, left}`, at most one per channel per subscriber every 250 ms) to the ' +
  "channels' subscribers. Needs `presence`.";

const limitValue = (name: LimitName) => z.number().int().min(1).max(1_000_000_000).describe(`${LIMIT_HELP[name]} Default ${DEFAULT_LIMITS[name]}.`);

const QUOTA_HELP: Record<QuotaName, string> = {
  monthlyMessages:
    'Messages the environment may store per calendar month (UTC), every route together (socket, HTTP, batch; an edit counts ' +
    'as one, reactions and ephemeral messages do not). Past it a publish is refused with 429 `quota_exceeded` (docs/quotas.md).',
  monthlyConnectionMinutes:
    'Minutes of realtime connections (every socket, summed) the environment may use per calendar month (UTC). Past it new ' +
    'connections are refused with 429 `quota_exceeded` (docs/quotas.md).',
};

/** A monthly quota: a whole number from 0, or null (unlimited). */
const quotaValue = (name: QuotaName) =>
  z.number().int().min(0).max(QUOTA_MAX).nullable().describe(`${QUOTA_HELP[name]} Null or absent: unlimited (the default).`);

const quotaFields = (optional: boolean) =>
  Object.fromEntries(
    (['monthlyMessages', 'monthlyConnectionMinutes'] as const).map((name) => [name, optional ? quotaValue(name).optional() : quotaValue(name)]),
  ) as {
    [K in QuotaName]: z.ZodNullable<z.ZodNumber>;
  };

/** Per-environment overrides of the limits; every one is optional (omitted: the default). */
export const LimitOverrides = z
  .object({
    ...(Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((name) => [name, limitValue(name as LimitName).optional()])) as {
      [K in LimitName]: z.ZodOptional<z.ZodNumber>;
    }),
    ...(quotaFields(true) as unknown as { [K in QuotaName]: z.ZodOptional<z.ZodNullable<z.ZodNumber>> }),
  })
  .strict()
  .meta({
    id: 'LimitOverrides',
    description:
      'Rate limits and socket quotas of the environment, enforced across the whole cluster. Rates are per fixed ' +
      'one-second window; a request over one is refused with 429 `rate_limited` (`retry-after` set), a socket ' +
      'publish over one closes the socket with 4429, a socket over a quota is closed with 4429. Some events weigh ' +
      'more than one unit (a history page, a publish with mentions; docs/limits.md). Omitted fields take their defaults. ' +
      '`monthlyMessages` and `monthlyConnectionMinutes` are monthly quotas (docs/quotas.md): omitted or null is unlimited.',
  });

/** Every limit in force (overrides over defaults). */
export const EffectiveLimits = z
  .object({
    ...(Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((name) => [name, limitValue(name as LimitName)])) as {
      [K in LimitName]: z.ZodNumber;
    }),
    ...quotaFields(false),
  })
  .meta({ id: 'Limits', description: 'The limits in force: the deployed overrides over the defaults.' });

export const Namespace = z
  .object({
    prefix: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_.:@=-]+$/, 'must be 1-128 of [A-Za-z0-9_.:@=-] (no `*`: every channel id starting with it belongs)')
      .describe('Channels whose id starts with this belong to the namespace; the longest matching prefix wins.'),
    access: ChannelAccess.optional().describe(
      "Access of the namespace's channels that have no access of their own (over `channels.access`). Omitted: `channels.access`.",
    ),
    anonymous: z
      .object({
        subscribe: z.boolean().optional().describe('Anonymous tokens may subscribe, read history and the roster. Default true.'),
        publish: z.boolean().optional().describe('Anonymous tokens may publish and retract. Default true.'),
      })
      .strict()
      .optional(),
    history: z.boolean().optional().describe('false: history is refused to user tokens (403 `forbidden`). Default true.'),
    persist: z.boolean().optional().describe('false: every message is ephemeral (202, no history, no webhook, no seq). Default true.'),
    retentionDays: z
      .number()
      .int()
      .min(1)
      .max(36_500)
      .optional()
      .describe('Messages older than this many days are deleted (a job every 15 minutes). Omitted: kept.'),
    maxContentBytes: z
      .number()
      .int()
      .min(2)
      .max(MAX_CONTENT_BYTES)
      .optional()
      .describe(`Largest \`content\`, in UTF-8 bytes of its JSON text as sent (413 \`payload_too_large\` above it). Omitted: ${MAX_CONTENT_BYTES}.`),
    presence: z.boolean().optional().describe(`${PRESENCE_HELP} Omitted: \`channels.presence\`.`),
    joinLeave: z.boolean().optional().describe(`${JOIN_LEAVE_HELP} Omitted: \`channels.joinLeave\`.`),
    delta: z
      .boolean()
      .optional()
      .describe(
        'Subscribers may ask for delta-compressed messages (`delta: "fossil"` on `subscribe`, `?delta=fossil` on the channel socket and ' +
          'the event stream): each message as a fossil delta against the previous one they received. Where it is not on, such a ' +
          'subscribe is refused with `forbidden`. Applies to subscriptions made after the deploy. Default false.',
      ),
    presenceWebhooks: z
      .boolean()
      .optional()
      .describe(
        "Send the `presence.entered` and `presence.left` webhook events of the namespace's channels (to the endpoints whose " +
          '`eventTypes` name them; docs/webhook-events.md). Needs `presence`. ' +
          `Omitted: ${PRESENCE_WEBHOOKS_DEFAULT}.`,
      ),
  })
  .strict()
  .meta({ id: 'Namespace', description: 'Settings of every channel whose id starts with `prefix` (docs/permissions.md).' });

export const Namespaces = z
  .array(Namespace)
  .max(MAX_NAMESPACES)
  .superRefine((namespaces, ctx) => {
    const problem = namespacesProblem(namespaces);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const WebhookTarget = z.object({ url: z.string().min(1).max(2048).describe('Receiving endpoint; validated before anything is stored.') }).strict();

export const DeployConfigBody = z
  .object({
    webhooks: WebhookTarget.nullable().optional().describe('Null or omitted disables delivery.'),
    channels: z
      .object({
        access: ChannelAccess.describe('Access of channels that have no access of their own.'),
        presence: z.boolean().optional().describe(`${PRESENCE_HELP} For channels whose namespace does not say. Omitted: ${PRESENCE_DEFAULT}.`),
        joinLeave: z.boolean().optional().describe(`${JOIN_LEAVE_HELP} For channels whose namespace does not say. Omitted: ${JOIN_LEAVE_DEFAULT}.`),
      })
      .strict()
      .optional()
      .describe(`Omitted: \`{access: "open", presence: ${PRESENCE_DEFAULT}, joinLeave: ${JOIN_LEAVE_DEFAULT}}\`.`),
    limits: LimitOverrides.optional().describe('Omitted: every limit at its default (a deploy replaces earlier overrides).'),
    namespaces: Namespaces.optional().describe('Omitted: none (every channel takes the defaults). Prefixes must be unique.'),
  })
  .strict()
  .meta({
    id: 'DeployConfig',
    description: 'A whole configuration: a deploy replaces the active one (omitted parts take their defaults: no webhook, open channels, default limits).',
  });

/**
 * `PATCH /v1/config`: JSON Merge Patch (RFC 7396) of the active configuration. Every field is
 * optional; `null` removes a setting (it takes its default), except `channels.access`, which
 * always has a value.
 */
export const PatchConfigBody = z
  .object({
    webhooks: WebhookTarget.nullable().optional().describe('Null disables delivery; omitted: unchanged.'),
    channels: z
      .object({
        access: ChannelAccess.optional().describe('Access of channels that have no access of their own. Omitted: unchanged (it cannot be removed).'),
        presence: z.boolean().nullable().optional().describe(`Null: back to the default (${PRESENCE_DEFAULT}). Omitted: unchanged.`),
        joinLeave: z.boolean().nullable().optional().describe(`Null: back to the default (${JOIN_LEAVE_DEFAULT}). Omitted: unchanged.`),
      })
      .strict()
      .nullable()
      .optional()
      .describe(
        `Merged field by field. Null: every channel setting back to its default (\`{access: "open", presence: ${PRESENCE_DEFAULT}, joinLeave: ${JOIN_LEAVE_DEFAULT}}\`).`,
      ),
    limits: z
      .object({
        ...(Object.fromEntries(
          Object.keys(DEFAULT_LIMITS).map((name) => [
            name,
            limitValue(name as LimitName)
              .nullable()
              .optional(),
          ]),
        ) as {
          [K in LimitName]: z.ZodOptional<z.ZodNullable<z.ZodNumber>>;
        }),
        ...(quotaFields(true) as unknown as { [K in QuotaName]: z.ZodOptional<z.ZodNullable<z.ZodNumber>> }),
      })
      .strict()
      .nullable()
      .optional()
      .describe(
        'Merged limit by limit: a number overrides that limit, null takes it back to its default, an omitted one is unchanged. Null: every limit at its default.',
      ),
    namespaces: Namespaces.nullable().optional().describe('Replaced whole when given (an array is never merged). Null: none. Omitted: unchanged.'),
  })
  .strict()
  .meta({
    id: 'ConfigPatch',
    description:
      'A JSON Merge Patch (RFC 7396) of the active configuration: objects merge member by member, `null` removes a ' +
      'setting (it takes its default), arrays (`namespaces`) are replaced whole, omitted fields are unchanged.',
  });

export const ActiveConfig = z
  .object({
    webhooks: z.object({ url: z.string() }).nullable(),
    channels: z.object({ access: ChannelAccess, presence: z.boolean(), joinLeave: z.boolean() }),
    limits: EffectiveLimits,
    namespaces: z.array(Namespace),
  })
  .meta({ id: 'Config' });

export const ConfigDeployment = z
  .object({
    deploymentId: z.string().nullable().describe('Null before the first deploy.'),
    activatedAt: IsoTime.nullable(),
    config: ActiveConfig,
  })
  .meta({ id: 'ConfigDeployment' });
