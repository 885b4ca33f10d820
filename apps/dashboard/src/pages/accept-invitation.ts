import { api, type Session } from '../api.ts';
import { field, h, time } from '../dom.ts';
import { form, messageOf } from '../ui.ts';

/**
 * /dashboard/accept-invitation#<token>: the token is in the fragment, so it never reaches a
 * server log; it is read here and sent only to the invitation routes. A new e-mail makes an
 * account with the password given; an existing account's e-mail needs that account's password.
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
    h('p', { class: 'muted' }, 'New here? Choose a password (at least 10 characters). Have an account? Use its password.'),
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
  box.append(
    form({ label: 'Accept the invitation', class: 'stack' }, [email, password], 'Accept and sign in', async (values) => {
      const session = await api.acceptInvitation(token, { ...(preview.email === null && { email: values.email ?? '' }), password: values.password ?? '' });
      // the token is spent: keep it out of the history
      history.replaceState(null, '', '/dashboard/accept-invitation');
      done(session);
    }),
  );
  return box;
}
