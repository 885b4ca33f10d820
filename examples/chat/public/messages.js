// The message list of the chat example: one <li> per message, kept in seq order, with what can
// change after a message is sent: its text (an edit, marked "edited"), its reactions (a few emoji
// buttons with their counts), or the message itself (retracted: it goes). Everything users wrote
// is put on the page with textContent, never innerHTML.

/** The reactions the page offers, in the order it shows them. */
export const REACTIONS = ['👍', '❤️', '😂', '🎉'];

/** Makes an element with text content (never markup) and optional attributes. */
function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function textOf(message) {
  const content = message.content;
  if (content && typeof content.text === 'string') return content.text;
  return JSON.stringify(content);
}

/**
 * Adds a message (from history, a replay or live) to the room's list, once. `view` is the room:
 * `{ channel, items, me, list, problem }` (`list` the <ol>, `problem(text)` shows an error).
 */
export function addMessage(view, message) {
  if (message.retracted || message.ephemeral) return;
  if (view.items.has(message.id)) return;
  const mine = message.sender?.id === view.me;
  const item = el('li', undefined, { 'data-id': message.id, 'data-seq': String(message.seq), 'data-sender': message.sender?.id ?? '' });
  if (mine) item.classList.add('mine');
  if (message.mentions?.includes(view.me)) item.classList.add('mentions-me');
  const text = el('span', textOf(message), { class: 'text' });
  const edited = el('span', 'edited', { class: 'edited' });
  item.append(
    el('span', message.sender?.id ?? '?', { class: 'sender' }),
    el('time', new Date(message.timestamp).toLocaleTimeString(), { class: 'time', datetime: new Date(message.timestamp).toISOString() }),
    text,
    edited,
  );
  const actions = el('span', undefined, { class: 'actions' });
  if (mine && message.kind === 'user') actions.append(editButton(view, message.id), retractButton(view, message.id));
  item.append(actions, reactionBar(view, message.id));
  view.items.set(message.id, { item, version: 0, reactions: {} });
  showContent(view, message);
  showReactions(view, message.id, message.reactions ?? {});

  // keep the list in seq order: history arrives newest first, live messages in order
  const list = view.list;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  let after = null;
  for (const other of list.children) {
    if (Number(other.dataset.seq) > message.seq) {
      after = other;
      break;
    }
  }
  list.insertBefore(item, after);
  if (after === null && atBottom) list.scrollTop = list.scrollHeight;
}

export function removeMessage(view, id) {
  view.items.get(id)?.item.remove();
  view.items.delete(id);
}

/** An `update` event: the message as it is now (an edit; after a resume, any change of it). */
export function applyUpdate(view, update) {
  if (!view.items.has(update.id)) return;
  showContent(view, update);
  showReactions(view, update.id, update.reactions ?? {});
}

/** A `summary` event: the message's reactions now. */
export function applySummary(view, summary) {
  if (view.items.has(summary.id)) showReactions(view, summary.id, summary.reactions);
}

/** The text and the "edited" mark of a version; an older version than the one shown changes nothing. */
function showContent(view, message) {
  const entry = view.items.get(message.id);
  const version = message.version ?? 1;
  if (version < entry.version) return;
  entry.version = version;
  entry.item.dataset.version = String(version);
  const editing = entry.item.querySelector('form.edit');
  entry.item.querySelector('.text').textContent = textOf(message);
  entry.item.querySelector('.edited').hidden = version < 2;
  if (version >= 2 && message.updatedAt) entry.item.querySelector('.edited').title = `edited ${new Date(message.updatedAt).toLocaleString()}`;
  if (editing) editing.elements.text.defaultValue = textOf(message);
}

function showReactions(view, id, reactions) {
  const entry = view.items.get(id);
  entry.reactions = reactions;
  for (const button of entry.item.querySelectorAll('button.react')) {
    const type = button.dataset.type;
    const summary = reactions[type];
    const count = summary?.count ?? 0;
    button.querySelector('.count').textContent = count > 0 ? String(count) : '';
    button.setAttribute('aria-pressed', String(Boolean(summary?.users.includes(view.me))));
    button.setAttribute('aria-label', `${type} ${count} ${count === 1 ? 'reaction' : 'reactions'}`);
  }
}

function reactionBar(view, id) {
  const bar = el('span', undefined, { class: 'reactions' });
  for (const type of REACTIONS) {
    const button = el('button', undefined, { type: 'button', class: 'react', 'data-type': type, 'aria-pressed': 'false' });
    button.append(el('span', type, { 'aria-hidden': 'true' }), el('span', '', { class: 'count', 'aria-hidden': 'true' }));
    button.addEventListener('click', async () => {
      // the summary of every subscriber (this page's too) shows the result; the button only asks
      const pressed = button.getAttribute('aria-pressed') === 'true';
      button.disabled = true;
      try {
        await (pressed ? view.channel.unreact(id, type) : view.channel.react(id, type));
      } catch (error) {
        view.problem(`Could not ${pressed ? 'take back' : 'add'} the reaction: ${error.reason ?? error.message}`);
      } finally {
        button.disabled = false;
      }
    });
    bar.append(button);
  }
  return bar;
}

function retractButton(view, id) {
  const retract = el('button', 'Retract', { type: 'button', class: 'retract' });
  retract.addEventListener('click', async () => {
    retract.disabled = true;
    try {
      await view.channel.retract(id);
      removeMessage(view, id);
    } catch (error) {
      retract.disabled = false;
      view.problem(`Could not retract: ${error.reason ?? error.message}`);
    }
  });
  return retract;
}

/** Edit: the text becomes a field (Enter saves, Escape cancels); every page gets the new text through the `update` event. */
function editButton(view, id) {
  const button = el('button', 'Edit', { type: 'button', class: 'edit' });
  button.addEventListener('click', () => {
    const entry = view.items.get(id);
    if (!entry || entry.item.querySelector('form.edit')) return;
    const text = entry.item.querySelector('.text');
    const form = el('form', undefined, { class: 'edit' });
    const input = el('input', undefined, { name: 'text', 'aria-label': 'Edit message', required: '', maxlength: '2000', autocomplete: 'off' });
    input.value = input.defaultValue = text.textContent;
    form.append(input, el('button', 'Save', { type: 'submit' }), el('button', 'Cancel', { type: 'button', class: 'cancel' }));
    // while the field is open it stands in for the text, and the message's buttons step aside
    const actions = button.parentElement;
    const close = () => {
      form.remove();
      text.hidden = false;
      actions.hidden = false;
    };
    form.querySelector('.cancel').addEventListener('click', close);
    input.addEventListener('keydown', (event) => event.key === 'Escape' && close());
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const next = input.value;
      if (!next.trim() || next === input.defaultValue) return close();
      for (const control of form.elements) control.disabled = true;
      try {
        await view.channel.edit(id, { text: next });
        close();
      } catch (error) {
        for (const control of form.elements) control.disabled = false;
        view.problem(`Not edited: ${error.reason ?? error.message}`);
      }
    });
    text.hidden = true;
    actions.hidden = true;
    text.after(form);
    input.focus();
  });
  return button;
}
