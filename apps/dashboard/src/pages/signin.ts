import { api, type Session } from '../api.ts';
import { field, h, link } from '../dom.ts';
import { form } from '../ui.ts';

/** The sign-in form; `done` gets the new session. */
export function signInPage(done: (session: Session) => void, notice?: string): Node {
  const email = field('E-mail', { name: 'email', type: 'email', autocomplete: 'username', required: true });
  const password = field('Password', { name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  return h(
    'div',
    { class: 'signin' },
    h('h1', {}, 'Sign in'),
    notice ? h('p', { class: 'muted', role: 'status' }, notice) : null,
    form({ label: 'Sign in', class: 'stack' }, [email, password], 'Sign in', async (values) => {
      done(await api.signIn(values.email ?? '', values.password ?? ''));
    }),
    h('p', {}, link('/dashboard/reset-password', 'Forgot your password?')),
  );
}
