import { api } from '../api.ts';
import { field, h, link } from '../dom.ts';
import { form } from '../ui.ts';
import { codeField, mailCodeButton } from './email-code.ts';

/**
 * /dashboard/reset-password: a code mailed to the account's address sets a new password (every
 * session of the account ends). The page says the same for every address: whether an account
 * uses it, only the mail tells.
 */
export function resetPasswordPage(done: () => void): Node {
  const email = field('E-mail', { name: 'email', type: 'email', autocomplete: 'username', required: true });
  const code = codeField('Code from the mail', true);
  const password = field('New password', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 10 });
  return h(
    'div',
    { class: 'signin' },
    h('h1', {}, 'Reset your password'),
    h(
      'p',
      { class: 'muted' },
      'We mail a code to your address; type it here with a new password (at least 10 characters). Every session of the account then ends.',
    ),
    form(
      { label: 'Reset the password', class: 'stack' },
      [email, mailCodeButton('Mail me a code', email, api.requestPasswordReset), code, password],
      'Set the password',
      async (values) => {
        await api.confirmPasswordReset({ email: values.email ?? '', code: values.code ?? '', password: values.password ?? '' });
        done();
      },
    ),
    h('p', {}, link('/dashboard', 'Back to sign-in')),
  );
}
