import { ApiError } from '../api.ts';
import { field, h, replace } from '../dom.ts';
import { actionButton, errorRegion } from '../ui.ts';

/** The field a mailed code is typed into (8 digits; the browser may fill it from the mail). */
export function codeField(label: string, required: boolean): HTMLLabelElement {
  return field(label, { name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 16, required, pattern: '[0-9 -]*' });
}

/**
 * A button that asks for a code mailed to the address in `email`, and a status line saying it is
 * on its way: the same words for every address, as the API's answer is (it never says whether an
 * account uses the address).
 */
export function mailCodeButton(label: string, email: HTMLLabelElement, ask: (email: string) => Promise<unknown>): HTMLElement {
  const status = h('p', { class: 'muted', role: 'status' });
  const errors = errorRegion();
  const input = email.querySelector('input')!;
  const button = actionButton(label, { class: 'secondary' }, errors, async () => {
    replace(status);
    const address = input.value.trim();
    if (!address) throw new ApiError(400, 'invalid_request', 'type the e-mail address first');
    await ask(address);
    replace(status, `A code is on its way to ${address} if it can receive one. It works once, for a few minutes.`);
  });
  return h('div', { class: 'stack' }, button, status, errors);
}
