/**
 * Requests and answers of the dashboard's management routes (`/v1/dashboard/…`, session cookie).
 * Component ids start with `Dashboard` so they never clash with the API-key routes' schemas.
 */
import { z } from 'zod';
import { ChannelId, IsoTime, UserId, storableText } from './common.ts';
import { MessageEnvelopeFields, MessageId, MessageType, SeqParam } from './channels.ts';
import { Ban, Membership } from './members.ts';
import { DeliveryId } from './webhooks.ts';
import { isStorableText, NOT_STORABLE } from './json-text.ts';

const id = (prefix: string, what: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `must be ${what} id (${prefix}_…)`);

export const DashboardOrganizationId = id('org', 'an organization');
export const DashboardProjectId = id('prj', 'a project');
export const DashboardEnvironmentId = id('env', 'an environment');
export const DashboardKeyId = id('key', 'an API key');
export const DashboardUserId = id('usr', 'a user');
export const DashboardInvitationId = id('inv', 'an invitation');

export const DashboardRole = z.enum(['owner', 'admin', 'viewer']).meta({
  id: 'DashboardRole',
  description: '`owner`: everything, and members and invitations; `admin`: manage projects, environments, keys, origins; `viewer`: read.',
});

/** Names of projects and environments: 1-64 characters after trimming, no control characters. */
export const DashboardName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
  .refine(isStorableText, NOT_STORABLE);

/** An e-mail address as typed: trimmed, no control characters (NUL included), `local@domain`. */
const Email = z
  .string()
  .trim()
  .max(254)
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'must not contain control characters')
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address');

/** A code mailed to an address: 8 digits (spaces and dashes as typed are ignored). */
const EmailCode = z
  .string()
  .max(32)
  .regex(/^[0-9\s-]+$/, 'must be the 8-digit code from the mail');

// ---------------------------------------------------------------- params

const OrgParam = DashboardOrganizationId.describe('An organization the signed-in user belongs to (another one: 404).');
const EnvParam = DashboardEnvironmentId.describe("An environment of one of the user's organizations (another one: 404).");
export const DashboardOrgParams = z.object({ orgId: OrgParam }).strict();
export const DashboardMemberParams = z.object({ orgId: OrgParam, userId: DashboardUserId.describe('A member of the organization.') }).strict();
export const DashboardInvitationParams = z
  .object({ orgId: OrgParam, invitationId: DashboardInvitationId.describe('An invitation of the organization.') })
  .strict();
export const DashboardInvitationTokenParams = z
  .object({
    token: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be an invitation token')
      .describe('The single-use token of an invitation link.'),
  })
  .strict();
export const DashboardProjectParams = z
  .object({ projectId: DashboardProjectId.describe("A project of one of the user's organizations (another one: 404).") })
  .strict();
export const DashboardEnvParams = z.object({ envId: EnvParam }).strict();
export const DashboardKeyParams = z.object({ envId: EnvParam, keyId: DashboardKeyId.describe('An API key of the environment.') }).strict();

// ---------------------------------------------------------------- session

export const DashboardSignInBody = z
  .object({
    email: Email,
    // checked, never judged: any length a person could type (rules apply when a password is set)
    password: z.string().min(1).max(1024),
  })
  .strict();

export const DashboardUser = z.object({ id: z.string(), email: z.string(), createdAt: IsoTime }).meta({ id: 'DashboardUser' });

export const DashboardMembership = z
  .object({ id: z.string(), name: z.string(), role: DashboardRole, createdAt: IsoTime })
  .meta({ id: 'DashboardMembership', description: 'An organization of the user and their role in it.' });

export const DashboardSession = z
  .object({
    user: DashboardUser,
    organizations: z.array(DashboardMembership),
    csrfToken: z.string().describe('Send it as `x-csrf-token` on every POST, PUT, PATCH and DELETE of the dashboard.'),
    expiresAt: IsoTime.describe('Absolute end of the session (sign-in + DASHBOARD_SESSION_MAX).'),
    idleExpiresAt: IsoTime.describe('When the session ends unless used before (last request + DASHBOARD_SESSION_IDLE).'),
  })
  .meta({ id: 'DashboardSession' });

// ---------------------------------------------------------------- organizations and members

export const DashboardOrganization = z
  .object({
    id: z.string(),
    name: z.string(),
    role: DashboardRole.describe("The signed-in user's role."),
    projectCount: z.number().int(),
    memberCount: z.number().int(),
    createdAt: IsoTime,
  })
  .meta({ id: 'DashboardOrganization' });

export const DashboardOrganizationList = z.object({ data: z.array(DashboardMembership) }).meta({ id: 'DashboardOrganizationList' });

export const DashboardMember = z.object({ userId: z.string(), email: z.string(), role: DashboardRole, joinedAt: IsoTime }).meta({ id: 'DashboardMember' });

export const DashboardMemberList = z.object({ data: z.array(DashboardMember) }).meta({ id: 'DashboardMemberList' });

export const DashboardSetRoleBody = z.object({ role: DashboardRole }).strict();

export const DashboardRoleList = z
  .object({
    data: z.array(
      z.object({
        role: DashboardRole,
        description: z.string(),
        rights: z.array(z.enum(['read', 'manage', 'administer'])),
      }),
    ),
  })
  .meta({ id: 'DashboardRoleList' });

// ---------------------------------------------------------------- invitations

export const DashboardInviteBody = z
  .object({
    role: DashboardRole,
    email: Email.optional().describe('When set, only this address may accept.'),
  })
  .strict();

export const DashboardInvitation = z
  .object({
    id: z.string(),
    role: DashboardRole,
    email: z.string().nullable(),
    status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
    createdAt: IsoTime,
    expiresAt: IsoTime,
    createdBy: z.string().nullable().describe('E-mail of the owner who invited (null: the admin CLI, or a deleted user).'),
  })
  .meta({ id: 'DashboardInvitation' });

export const DashboardInvitationList = z.object({ data: z.array(DashboardInvitation) }).meta({ id: 'DashboardInvitationList' });

export const DashboardCreatedInvitation = DashboardInvitation.extend({
  token: z.string().describe('Single use; shown only in this answer (stored hashed).'),
  link: z.string().describe('`<dashboard origin>/dashboard/accept-invitation#<token>`: the token travels in the fragment, never to a server log.'),
}).meta({ id: 'DashboardCreatedInvitation' });

export const DashboardInvitationPreview = z
  .object({
    organization: z.object({ id: z.string(), name: z.string() }),
    role: DashboardRole,
    email: z.string().nullable().describe('When set, only this address may accept.'),
    expiresAt: IsoTime,
  })
  .meta({ id: 'DashboardInvitationPreview' });

export const DashboardAcceptInvitationBody = z
  .object({
    email: Email.optional().describe('Required when the invitation names no address; must match it when it does.'),
    password: z.string().min(1).max(1024).describe("The account's password, or the new account's (at least 10 characters)."),
    code: EmailCode.optional().describe('A verification code mailed to the address (POST /v1/dashboard/email-verifications): needed to make a new account.'),
  })
  .strict();

// ---------------------------------------------------------------- codes mailed to an address

export const DashboardEmailBody = z.object({ email: Email }).strict();

export const DashboardCodeRequested = z
  .object({ status: z.literal('requested').describe('The same for every address, whether or not an account uses it.') })
  .meta({ id: 'DashboardCodeRequested' });

export const DashboardResetConfirmBody = z
  .object({
    email: Email,
    code: EmailCode.describe('The reset code mailed to the address (POST /v1/dashboard/password-resets).'),
    password: z.string().min(1).max(1024).describe('The new password (at least 10 characters).'),
  })
  .strict();

// ---------------------------------------------------------------- projects and environments

export const DashboardNameBody = z.object({ name: DashboardName }).strict();

export const DashboardProject = z
  .object({ id: z.string(), organizationId: z.string(), name: z.string(), environmentCount: z.number().int(), createdAt: IsoTime })
  .meta({ id: 'DashboardProject' });

export const DashboardProjectList = z.object({ data: z.array(DashboardProject) }).meta({ id: 'DashboardProjectList' });

export const DashboardEnvironment = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    projectId: z.string(),
    name: z.string(),
    activeKeyCount: z.number().int(),
    originCount: z.number().int(),
    createdAt: IsoTime,
  })
  .meta({ id: 'DashboardEnvironment' });

export const DashboardEnvironmentList = z.object({ data: z.array(DashboardEnvironment) }).meta({ id: 'DashboardEnvironmentList' });

export const DashboardDeleteEnvironmentBody = z.object({ confirm: z.string().max(256).describe("The environment's exact name.") }).strict();

// ---------------------------------------------------------------- keys and origins

export const DashboardCreateKeyBody = z.object({ kind: z.enum(['secret', 'publishable']) }).strict();

export const DashboardKey = z
  .object({
    id: z.string(),
    environmentId: z.string(),
    kind: z.enum(['secret', 'publishable']),
    prefix: z.string().describe('The first characters of the key, to recognise it (`sk_AbCd…`).'),
    createdAt: IsoTime,
    lastUsedAt: IsoTime.nullable().describe('Recorded at most once a minute per gateway: up to a minute behind.'),
    revokedAt: IsoTime.nullable(),
  })
  .meta({ id: 'DashboardKey' });

export const DashboardKeyList = z.object({ data: z.array(DashboardKey) }).meta({ id: 'DashboardKeyList' });

export const DashboardCreatedKey = DashboardKey.extend({
  key: z.string().describe('The key itself, shown only in this answer (only its hash is stored).'),
}).meta({ id: 'DashboardCreatedKey' });

export const DashboardOriginBody = z.object({ origin: z.string().min(1).max(2048) }).strict();
export const DashboardOriginQuery = z
  .object({ origin: z.string().min(1).max(2048).describe('The allowed origin to remove, as listed (scheme://host[:port]).') })
  .strict();

export const DashboardOrigin = z.object({ origin: z.string(), createdAt: IsoTime }).meta({ id: 'DashboardOrigin' });
export const DashboardOriginList = z.object({ data: z.array(DashboardOrigin) }).meta({ id: 'DashboardOriginList' });

// ---------------------------------------------------------------- audit log

export const DashboardAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).optional().describe('Default 50, maximum 200.'),
    cursor: z.string().min(1).max(200).optional().describe('`nextCursor` of the previous page (opaque).'),
  })
  .strict();

export const DashboardAuditEntry = z
  .object({
    id: z.string(),
    at: IsoTime,
    actor: z.object({
      kind: z
        .enum(['user', 'cli', 'key', 'system'])
        .describe("`cli`: the operator's admin CLI; `key`: a secret key on the control plane (`id` is the key's `key_…` id); `system`: the service itself."),
      id: z.string().nullable(),
      email: z.string().nullable(),
    }),
    action: z.string().describe('`<target>.<verb>`, e.g. `key.revoked`, `member.role_changed`.'),
    target: z.object({ type: z.string(), id: z.string().nullable() }),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'DashboardAuditEntry' });

export const DashboardAuditPage = z
  .object({ data: z.array(DashboardAuditEntry), nextCursor: z.string().nullable().describe('Null on the last page.') })
  .meta({ id: 'DashboardAuditPage' });

/** The CSRF header, documented on every state-changing dashboard route. */
export const DashboardCsrfHeaders = z.looseObject({
  'x-csrf-token': z.string().describe("The session's `csrfToken` (from GET /v1/dashboard/session)."),
});

/** The same, where a request without a live session needs no token (signing out). */
export const DashboardOptionalCsrfHeaders = z.looseObject({
  'x-csrf-token': z.string().optional().describe("The session's `csrfToken`; required while the session is live."),
});

// ---------------------------------------------------------------- messages, members, bans, webhooks

const ChannelParam = ChannelId.describe('A channel of the environment: 1-128 of `[A-Za-z0-9_.:@=-]`.');
const ChannelUserParam = UserId.describe('An application user id: 1-128 of `[A-Za-z0-9_.:@-]`.');

export const DashboardChannelParams = z.object({ envId: EnvParam, channelId: ChannelParam }).strict();
export const DashboardChannelMessageParams = z
  .object({ envId: EnvParam, channelId: ChannelParam, messageId: MessageId.describe('A message of the channel (`msg_…`).') })
  .strict();
export const DashboardChannelUserParams = z.object({ envId: EnvParam, channelId: ChannelParam, userId: ChannelUserParam }).strict();
export const DashboardEnvUserParams = z.object({ envId: EnvParam, userId: ChannelUserParam }).strict();
export const DashboardDeliveryParams = z
  .object({ envId: EnvParam, deliveryId: DeliveryId.describe('A delivery of the environment (`dlv_…`) from the ledger.') })
  .strict();

const PageLimit = z.coerce.number().int().min(1).max(500).optional().describe('Default 50, maximum 500.');

export const DashboardChannelsQuery = z
  .object({
    limit: PageLimit,
    cursor: z.string().min(1).max(200).optional().describe('`nextCursor` of the previous page (opaque).'),
  })
  .strict();

export const DashboardChannel = z
  .object({
    channelId: z.string(),
    messageCount: z.number().int().describe('Persisted messages, retracted ones included.'),
    lastSeq: z.number().int(),
    lastActivityAt: IsoTime.nullable().describe('When the newest persisted message was published; null without messages.'),
    createdAt: IsoTime,
  })
  .meta({ id: 'DashboardChannel' });

export const DashboardChannelList = z
  .object({ data: z.array(DashboardChannel), nextCursor: z.string().nullable().describe('Null on the last page.') })
  .meta({ id: 'DashboardChannelList' });

export const DashboardMessagesQuery = z
  .object({
    limit: PageLimit,
    before: SeqParam.optional().describe('Exclusive upper seq bound: the `nextBefore` of the previous page.'),
    sender: UserId.optional().describe('Only messages of this sender id (a user id, or e.g. "server").'),
    type: MessageType.optional().describe('Only messages of this type.'),
    since: IsoTime.optional().describe('Only messages published at or after this time (ISO 8601).'),
    until: IsoTime.optional().describe('Only messages published before this time (ISO 8601).'),
  })
  .strict();

export const DashboardMessage = MessageEnvelopeFields.extend({
  channelId: z.string(),
  retractedAt: IsoTime.nullable(),
}).meta({ id: 'DashboardMessage', description: 'A persisted message as the control plane sees it (addressed messages included).' });

export const DashboardMessagePage = z
  .object({
    data: z.array(DashboardMessage).describe('Newest first.'),
    nextBefore: z.number().int().nullable().describe('`before` of the next (older) page; null on the last page.'),
  })
  .meta({ id: 'DashboardMessagePage' });

export const DashboardRetractBody = z
  .object({ reason: storableText(1024).describe("Why: kept in the audit log and sent on the sockets' `retract` frame.") })
  .strict();

export const DashboardUserPageQuery = z
  .object({
    limit: PageLimit,
    after: UserId.optional().describe('`nextAfter` of the previous page: the last user id shown.'),
  })
  .strict();

export const DashboardChannelMemberPage = z
  .object({ data: z.array(Membership), nextAfter: z.string().nullable().describe('Null on the last page.') })
  .meta({ id: 'DashboardChannelMemberPage' });

export const DashboardBanPage = z
  .object({ data: z.array(Ban), nextAfter: z.string().nullable().describe('Null on the last page.') })
  .meta({ id: 'DashboardBanPage' });

export const DashboardWebhook = z
  .object({
    url: z.string().nullable().describe('The active webhook URL; null when delivery is off.'),
    deploymentId: z.string().nullable().describe('The active configuration deployment; null before the first deploy.'),
    activatedAt: IsoTime.nullable(),
    secretConfigured: z.boolean().describe('Whether the environment has a signing secret (made at the first deploy with a URL).'),
  })
  .meta({ id: 'DashboardWebhook' });

export const DashboardWebhookBody = z.object({ url: z.string().min(1).max(2048).nullable().describe("The receiver's URL; null turns delivery off.") }).strict();
