import { api, type Session } from '../api.ts';
import { field, h, link, time } from '../dom.ts';
import { form, messageOf } from '../ui.ts';
import { codeField, mailCodeButton } from './email-code.ts';

/**
 * /dashboard/accept-invitation#<token>: the token is in the fragment, so it never reaches a
 * server log; it is read here and sent only to the invitation routes. An existing account joins
 * with its password; a new account needs a code mailed to the address (the address is proven) and
 * gets the password given.
 */
export async function acceptInvitationPage(token: string, done: (session: Session) => void): Promise<Node> {
  const box = h('div', { class: 'signin' }, h('h1', {}, 'Accept an invitation'));
  if (!token) {
    box.append(h('p', { class: 'error', role: 'alert' }, 'This link has no invitation in it: open the whole link you were given.'));
    return box;
  }
  let preview;
  try {
    preview = await api.previewInvitation(token);
  } catch (failure) {
    box.append(h('p', { class: 'error', role: 'alert' }, messageOf(failure)));
    return box;
  }
  box.append(
    h('p', {}, 'Join ', h('strong', {}, preview.organization.name), ' as ', h('strong', {}, preview.role), '.'),
    h('p', { class: 'muted' }, 'The link is valid until ', time(preview.expiresAt), '.'),
    h(
      'p',
      { class: 'muted' },
      'Have an account? Use its password. New here? Get a code mailed to your address, then type it with the password you choose (at least 10 characters).',
    ),
  );
  const email = field('E-mail', {
    name: 'email',
    type: 'email',
    autocomplete: 'username',
    required: true,
    value: preview.email ?? '',
    readonly: preview.email !== null,
  });
  const password = field('Password', { name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const code = codeField('Code from the mail (new accounts only)', false);
  const fields = [email, mailCodeButton('Mail me a code', email, api.requestVerification), code, password];
  box.append(
    form({ label: 'Accept the invitation', class: 'stack' }, fields, 'Accept and sign in', async (values) => {
      const typed = values.code?.trim();
      const session = await api.acceptInvitation(token, {
        ...(preview.email === null && { email: values.email ?? '' }),
        password: values.password ?? '',
        ...(typed && { code: typed }),
      });
      // the token is spent: keep it out of the history
      history.replaceState(null, '', '/dashboard/accept-invitation');
      done(session);
    }),
    h('p', {}, 'Forgot the password of your account? ', link('/dashboard/reset-password', 'Reset it by mail'), ', then come back to this link.'),
  );
  return box;
}
