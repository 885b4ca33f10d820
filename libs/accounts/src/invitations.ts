/**
 * Invitations: single-use links an owner makes for a role in an organization. The token is shown
 * once and stored hashed; an invitation is pending until it is accepted, revoked or expires.
 */
import { createHash, randomBytes } from 'node:crypto';
import { newId, withTransaction, type Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { AccessControl, Queryable } from './access.ts';
import { auditedChange, isUniqueViolation } from './audited-change.ts';
import { recordAudit, type Actor } from './audit.ts';
import type { EmailCodes } from './email-codes.ts';
import { hashPassword } from './password.ts';
import type { Role } from './roles.ts';
import { checkedEmail, checkedPassword, hashing, type SignIn } from './sign-in.ts';
import { findUserByEmail, insertUser, type UserRecord } from './users.ts';

export interface InvitationView {
  id: string;
  organizationId: string;
  role: Role;
  email: string | null;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  createdAt: Date;
  expiresAt: Date;
  createdBy: string | null;
}

const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const GONE = 'no such invitation, or it was used, revoked or has expired';
/** The refusal without a code: the same whether the address has an account (wrong password) or not. */
const NO_ACCOUNT_OR_WRONG_PASSWORD =
  'wrong e-mail or password: an existing account joins with its password; a new account needs the code mailed to the address ' +
  '(POST /v1/dashboard/email-verifications)';

export const hashInvitationToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export class Invitations {
  private readonly access: AccessControl;
  /** Checks an existing account's password when it accepts. */
  private readonly signIn: SignIn;
  /** Verification codes: the proof a new account's address needs. */
  private readonly codes: EmailCodes;
  /** How long an invitation link stays valid. */
  private readonly ttlMs: number;

  constructor(access: AccessControl, signIn: SignIn, codes: EmailCodes, ttlMs: number) {
    this.access = access;
    this.signIn = signIn;
    this.codes = codes;
    this.ttlMs = ttlMs;
  }

  private get pool(): Pool {
    return this.access.pool;
  }

  /** Owners only: a single-use invitation; the token is answered here once and stored hashed. */
  async invite(
    actor: Actor,
    organizationId: string,
    options: { role: Role; email?: string | undefined },
  ): Promise<{ invitation: InvitationView; token: string }> {
    const email = options.email === undefined ? null : checkedEmail(options.email);
    const token = randomBytes(32).toString('base64url');
    return auditedChange(this.access, actor, { organizationId }, 'administer', async ({ client, audit }) => {
      const id = newId('inv');
      const { rows } = await client.query<{ created_at: Date; expires_at: Date }>(
        `insert into invitations (id, organization_id, token_hash, role, email, created_by, expires_at)
         values ($1, $2, $3, $4, $5, $6, now() + $7::bigint * interval '1 millisecond') returning created_at, expires_at`,
        [id, organizationId, hashInvitationToken(token), options.role, email, actor.kind === 'user' ? actor.userId : null, this.ttlMs],
      );
      const { created_at: createdAt, expires_at: expiresAt } = rows[0]!;
      await audit({
        action: 'invitation.created',
        targetType: 'invitation',
        targetId: id,
        details: { role: options.role, email, expiresAt: expiresAt.toISOString() },
      });
      const createdBy = actor.kind === 'user' ? actor.email : null;
      return { invitation: { id, organizationId, role: options.role, email, status: 'pending', createdAt, expiresAt, createdBy }, token };
    });
  }

  /** The newest 100 invitations of an organization, with their state; never their tokens. */
  async list(actor: Actor, organizationId: string): Promise<InvitationView[]> {
    await this.access.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<InvitationRow>(
      `select ${INVITATION_COLUMNS} from invitations i left join users u on u.id = i.created_by
       where i.organization_id = $1 order by i.created_at desc, i.id desc limit 100`,
      [organizationId],
    );
    return rows.map(invitationView);
  }

  /** Owners only: a pending invitation stops working. */
  async revoke(actor: Actor, organizationId: string, invitationId: string): Promise<InvitationView> {
    return auditedChange(this.access, actor, { organizationId }, 'administer', async ({ client, audit }) => {
      const { rows } = await client.query<InvitationRow>(
        `select ${INVITATION_COLUMNS} from invitations i left join users u on u.id = i.created_by
         where i.id = $1 and i.organization_id = $2 for update of i`,
        [invitationId, organizationId],
      );
      if (!rows[0]) throw new ServiceError('not_found', 'no such invitation');
      const view = invitationView(rows[0]);
      if (view.status === 'revoked') return view;
      if (view.status !== 'pending') throw new ServiceError('invalid_request', `the invitation is already ${view.status}`);
      await client.query('update invitations set revoked_at = now() where id = $1', [invitationId]);
      await audit({ action: 'invitation.revoked', targetType: 'invitation', targetId: invitationId, details: { role: view.role, email: view.email } });
      return { ...view, status: 'revoked' };
    });
  }

  /** What a pending invitation offers, for the page that accepts it; unknown, used, revoked or expired: 404. */
  async preview(token: string): Promise<{ organizationId: string; organizationName: string; role: Role; email: string | null; expiresAt: Date }> {
    const row = await pendingInvitation(this.pool, token);
    return { organizationId: row.organization_id, organizationName: row.organization_name, role: row.role, email: row.email, expiresAt: row.expires_at };
  }

  /**
   * Accepts an invitation, for the e-mail it names (or, when it names none, the one given):
   * - without `code`, only an existing account joins, with its password (sign-in's check, so
   *   throttled the same way); a wrong password and an address without an account are the same
   *   401, and the invitation stays usable;
   * - with `code` (a verification code mailed to the address: the address is proven), a new
   *   account is made with `password`, or an existing one joins with its password.
   * So an invitation never makes an account for an address nobody proved to own. The invitation
   * is used up once, whoever gets there first; an existing member keeps their role.
   */
  async accept(
    token: string,
    body: { email?: string | undefined; password: string; code?: string | undefined },
    ip: string,
  ): Promise<{ user: UserRecord; organizationId: string; role: Role; created: boolean }> {
    const invitation = await pendingInvitation(this.pool, token);
    const given = body.email === undefined ? null : checkedEmail(body.email);
    if (invitation.email !== null && given !== null && given !== invitation.email) {
      throw new ServiceError('forbidden', 'this invitation is for another e-mail address');
    }
    const email = invitation.email ?? given;
    if (email === null) throw new ServiceError('invalid_request', 'body.email: required, the invitation names no e-mail address');

    let codeId: string | null = null;
    let existing: UserRecord | null;
    let passwordHash: string | undefined;
    if (body.code === undefined) {
      existing = await this.signIn.withPassword(email, body.password, ip).catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'unauthorized') throw new ServiceError('unauthorized', NO_ACCOUNT_OR_WRONG_PASSWORD);
        throw error;
      });
    } else {
      codeId = await this.codes.check(email, 'verify', body.code);
      existing = await findUserByEmail(this.pool, email);
      if (existing) await this.signIn.withPassword(email, body.password, ip);
      else passwordHash = await hashing(() => hashPassword(checkedPassword(body.password)));
    }

    return withTransaction(this.pool, async (client) => {
      // locked and checked again: of two acceptances at once, one wins
      const row = await pendingInvitation(client, token, true);
      if (codeId !== null) await this.codes.use(client, codeId);
      let user = existing;
      if (!user) {
        try {
          user = await insertUser(client, email, passwordHash!);
        } catch (error) {
          if (isUniqueViolation(error)) throw new ServiceError('unavailable', 'the account was created meanwhile; retry', { retryAfter: 1 });
          throw error;
        }
      }
      const created = !existing;
      const joined = await client.query(`insert into organization_members (organization_id, user_id, role) values ($1, $2, $3) on conflict do nothing`, [
        row.organization_id,
        user.id,
        row.role,
      ]);
      await client.query('update invitations set accepted_at = now(), accepted_by = $2 where id = $1', [row.id, user.id]);
      const alreadyMember = (joined.rowCount ?? 0) === 0;
      const role: Role = alreadyMember
        ? (
            await client.query<{ role: Role }>('select role from organization_members where organization_id = $1 and user_id = $2', [
              row.organization_id,
              user.id,
            ])
          ).rows[0]!.role
        : row.role;
      await recordAudit(
        client,
        { kind: 'user', userId: user.id, email: user.email },
        {
          organizationId: row.organization_id,
          action: 'invitation.accepted',
          targetType: 'user',
          targetId: user.id,
          details: { invitationId: row.id, email: user.email, role, accountCreated: created, alreadyMember },
        },
      );
      return { user, organizationId: row.organization_id, role, created };
    });
  }
}

interface PendingRow {
  id: string;
  organization_id: string;
  organization_name: string;
  role: Role;
  email: string | null;
  expires_at: Date;
}

async function pendingInvitation(client: Queryable, token: string, lock = false): Promise<PendingRow> {
  if (!INVITATION_TOKEN.test(token)) throw new ServiceError('not_found', GONE);
  const { rows } = await client.query<PendingRow>(
    `select i.id, i.organization_id, o.name as organization_name, i.role, i.email, i.expires_at
     from invitations i join organizations o on o.id = i.organization_id
     where i.token_hash = $1 and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()
     ${lock ? 'for update of i' : ''}`,
    [hashInvitationToken(token)],
  );
  if (!rows[0]) throw new ServiceError('not_found', GONE);
  return rows[0];
}

interface InvitationRow {
  id: string;
  organization_id: string;
  role: Role;
  email: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  expired: boolean;
  created_by_email: string | null;
}

const INVITATION_COLUMNS = `i.id, i.organization_id, i.role, i.email, i.created_at, i.expires_at, i.accepted_at, i.revoked_at,
  i.expires_at <= now() as expired, u.email as created_by_email`;

function invitationView(row: InvitationRow): InvitationView {
  const status = row.accepted_at ? 'accepted' : row.revoked_at ? 'revoked' : row.expired ? 'expired' : 'pending';
  return {
    id: row.id,
    organizationId: row.organization_id,
    role: row.role,
    email: row.email,
    status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    createdBy: row.created_by_email,
  };
}
