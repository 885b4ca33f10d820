/**
 * Proving an e-mail address, and setting a new password with that proof. Every request answers
 * the same whether or not an account uses the address, and does the same work before answering
 * (look the address up, store a code, hand the mail to the sender without waiting for it): only
 * the mailbox learns what it needs.
 * - A verification code (`verify`) is what a new account needs: accepting an invitation for an
 *   address nobody has an account with makes one only with a code mailed to that address.
 * - A reset code (`reset`) sets a new password (`confirmReset`); the mail to an address without
 *   an account says so instead, and no code it holds can ever be used.
 */
import { withTransaction, type Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { recordAudit } from './audit.ts';
import { WRONG_CODE, type CodePurpose, type EmailCodes } from './email-codes.ts';
import type { MailMessage, MailSender } from './mail.ts';
import { hashPassword } from './password.ts';
import { checkedEmail, checkedPassword, hashing } from './sign-in.ts';
import { findUserByEmail, setPasswordHash } from './users.ts';

export interface RecoveryParts {
  pool: Pool;
  codes: EmailCodes;
  mail: MailSender;
  /** A mail the sender could not hand over (the request was already answered). */
  onMailFailure: (error: unknown, message: Pick<MailMessage, 'to' | 'purpose'>) => void;
}

function minutes(ms: number): string {
  const n = Math.max(1, Math.round(ms / 60_000));
  return n === 1 ? '1 minute' : `${n} minutes`;
}

/** The mails: a code, or (a reset for an address without an account) a note that there is none. */
export function codeMail(to: string, purpose: CodePurpose, code: string | null, ttlMs: number): MailMessage {
  if (purpose === 'verify') {
    return {
      to,
      purpose,
      subject: `Your verification code: ${code}`,
      text:
        `Your code to confirm this e-mail address for the dashboard is ${code}. It works once, for ${minutes(ttlMs)}. ` +
        'If you did not ask for it, ignore this message.',
    };
  }
  if (code === null) {
    return {
      to,
      purpose,
      subject: 'Password reset: no account uses this address',
      text:
        'Someone asked to reset the dashboard password of this e-mail address, but no account uses it. ' +
        'To join an organization, ask one of its owners for an invitation. If you did not ask, ignore this message.',
    };
  }
  return {
    to,
    purpose,
    subject: `Your password reset code: ${code}`,
    text:
      `Your code to set a new dashboard password is ${code}. It works once, for ${minutes(ttlMs)}; ` +
      'setting the password signs every session of the account out. If you did not ask for it, ignore this message.',
  };
}

export class Recovery {
  private readonly parts: RecoveryParts;

  constructor(parts: RecoveryParts) {
    this.parts = parts;
  }

  /** Mails a verification code to `email`: the same for every address (429 past the limits). */
  async requestVerification(email: string, requester: string): Promise<void> {
    const address = checkedEmail(email);
    const code = await this.parts.codes.issue(address, 'verify', requester);
    this.mail(codeMail(address, 'verify', code, this.parts.codes.rules.ttlMs));
  }

  /** Mails a reset code to `email` when an account uses it, a note otherwise; the same answer. */
  async requestReset(email: string, requester: string): Promise<void> {
    const address = checkedEmail(email);
    const user = await findUserByEmail(this.parts.pool, address);
    // a code is stored either way (the limits count it); without an account nobody ever sees it
    const code = await this.parts.codes.issue(address, 'reset', requester);
    this.mail(codeMail(address, 'reset', user ? code : null, this.parts.codes.rules.ttlMs));
  }

  /**
   * Sets the password of the account of `email` with a reset code; answers the account's id (its
   * sessions are for the caller to end). A wrong, used or expired code, or an address without an
   * account: the same 401.
   */
  async confirmReset(email: string, code: string, password: string): Promise<{ userId: string; email: string }> {
    const address = checkedEmail(email);
    checkedPassword(password);
    const codeId = await this.parts.codes.check(address, 'reset', code);
    const hash = await hashing(() => hashPassword(password));
    return withTransaction(this.parts.pool, async (client) => {
      await this.parts.codes.use(client, codeId);
      const user = await findUserByEmail(client, address);
      if (!user) throw new ServiceError('unauthorized', WRONG_CODE);
      await setPasswordHash(client, user.id, hash);
      const { rows } = await client.query<{ organization_id: string }>('select organization_id from organization_members where user_id = $1', [user.id]);
      for (const { organization_id: organizationId } of rows) {
        await recordAudit(
          client,
          { kind: 'user', userId: user.id, email: user.email },
          {
            organizationId,
            action: 'user.password_reset',
            targetType: 'user',
            targetId: user.id,
            details: { email: user.email },
          },
        );
      }
      return { userId: user.id, email: user.email };
    });
  }

  /** Hands a mail to the sender without waiting: the answer never waits on (or tells about) the mail. */
  private mail(message: MailMessage): void {
    this.parts.mail.send(message).catch((error: unknown) => this.parts.onMailFailure(error, { to: message.to, purpose: message.purpose }));
  }
}
