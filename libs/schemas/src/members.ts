import { z } from 'zod';
import { UserId, ChannelId, IsoTime, storableText } from './common.ts';

export const MemberRole = z
  .enum(['member', 'moderator', 'readonly'])
  .describe(
    '`member` subscribes, reads and publishes; `readonly` subscribes and reads only (publishing is refused with 403 `forbidden`); ' +
      '`moderator` also retracts any message of the channel and removes and bans its members from the realtime edge.',
  );
export const ChannelAccess = z.enum(['open', 'members']);

/** Path parameters; their descriptions become the OpenAPI parameter descriptions. */
export const ChannelIdParam = ChannelId.describe('The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application.');
export const UserIdParam = UserId.describe('The user: 1-128 of `[A-Za-z0-9_.:@-]`, chosen by the application.');

export const ChannelParams = z.object({ channelId: ChannelIdParam }).strict();
export const ChannelUserParams = z.object({ channelId: ChannelIdParam, userId: UserIdParam }).strict();
export const UserParams = z.object({ userId: UserIdParam }).strict();

export const PutMemberBody = z.object({ role: MemberRole.optional().describe('Defaults to `member`; a PUT replaces the role.') }).strict();

export const Membership = z
  .object({
    channelId: z.string(),
    userId: z.string(),
    role: MemberRole,
    createdAt: IsoTime,
    updatedAt: IsoTime,
  })
  .meta({ id: 'Membership' });

export const ChannelSettingsBody = z.object({ access: ChannelAccess }).strict();

export const ChannelSettings = z.object({ channelId: z.string(), access: ChannelAccess }).meta({ id: 'ChannelSettings' });

export const BanBody = z
  .object({
    reason: storableText(512).optional().describe('Shown to the user as the `reason` of 403 `banned`.'),
    expiresAt: IsoTime.optional().describe('ISO 8601, in the future; without it the ban lasts until removed.'),
  })
  .strict();

export const Ban = z
  .object({
    userId: z.string(),
    channelId: z.string().nullable().describe('null for an environment-wide ban.'),
    reason: z.string().nullable(),
    expiresAt: IsoTime.nullable(),
    createdAt: IsoTime,
  })
  .meta({ id: 'Ban' });

export const RosterEntry = z.object({
  userId: z.string(),
  role: MemberRole,
  online: z.boolean(),
  data: z
    .unknown()
    .optional()
    .describe(
      'The presence data the user entered with (`presence-enter`/`presence-update` on `/v1/connect`: any JSON, at most 1 KiB serialized; null when entered without). Absent when the user is offline or has not entered.',
    ),
});

/** The largest roster page (and the default): a channel of 10,000 reads in ten pages. */
export const ROSTER_PAGE_MAX = 1000;

export const RosterQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(ROSTER_PAGE_MAX).optional().describe(`Entries per page. Default and maximum ${ROSTER_PAGE_MAX}.`),
    cursor: z.string().min(1).max(400).optional().describe('`nextCursor` of the previous page (opaque).'),
  })
  .strict();

export const Roster = z
  .object({
    members: z.array(RosterEntry),
    nextCursor: z.string().nullable().describe('Null on the last page; otherwise pass it as `cursor` for the next one.'),
  })
  .meta({ id: 'Roster' });

export const Occupancy = z
  .object({
    channelId: z.string(),
    connections: z.number().int().min(0).describe('Live subscriptions of the channel (channel sockets and `/v1/connect` subscriptions) on every gateway.'),
    users: z.number().int().min(0).describe('Distinct users among them.'),
  })
  .meta({ id: 'Occupancy' });
