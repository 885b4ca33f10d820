// The chat example's page: plain DOM code on top of the client SDK, which it loads from the
// realtime edge (`<realtime>/sdk/client.js`). Everything a user or another user wrote is put on
// the page with textContent, never innerHTML, so a message cannot inject markup or script. The
// message list (edits and reactions included) is messages.js.

import { addMessage, applySummary, applyUpdate, removeMessage } from './messages.js';

const DEFAULT_ROOMS = ['general', 'random'];
const PAGE = 30;
const USER_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
const ROOM_ID = /^[A-Za-z0-9_.:@=-]{1,128}$/;
const MENTION = /(?:^|[^A-Za-z0-9_.:@-])@([A-Za-z0-9_.:-]{1,128})/g;

const $ = (id) => document.getElementById(id);

/** Makes an element with text content (never markup) and optional attributes. */
function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function showProblem(text) {
  const problem = $('problem');
  problem.textContent = text;
  problem.hidden = !text;
}

const STATE_LABELS = {
  connecting: 'connecting…',
  connected: 'connected',
  disconnected: 'reconnecting…',
  suspended: 'offline (retrying)',
  closed: 'closed',
};

let sdk;
let client;
let me;
/** The room on screen: its channel, subscription, history cursor and rendered messages. */
let current = null;
const rooms = new Set(DEFAULT_ROOMS);

async function mintToken(userId) {
  const res = await fetch('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || typeof body.token !== 'string') throw new Error(body.reason ?? body.code ?? `token request failed (${res.status})`);
  return body.token;
}

// ---------------------------------------------------------------- sign in and connection

async function signIn(userId, realtimeUrl) {
  // one token first, so a bad name is reported here and not as a failing connection
  let first = await mintToken(userId);
  me = userId;
  client = sdk.createClient({
    url: realtimeUrl,
    // the SDK calls this to connect, before the token expires and after a 4401
    getToken: async () => {
      if (first) {
        const token = first;
        first = null;
        return token;
      }
      return mintToken(me);
    },
  });
  client.on('state', (state, info = {}) => {
    const badge = $('state');
    badge.dataset.state = state;
    const retry = info.retryInMs ? ` (retry in ${Math.ceil(info.retryInMs / 1000)} s)` : '';
    badge.textContent = `${STATE_LABELS[state] ?? state}${retry}`;
    if (state === 'connected') showProblem('');
  });
  client.on('error', (error) => showProblem(`${error.code ?? 'error'}: ${error.reason ?? error.message}`));

  $('me').textContent = me;
  $('me').hidden = false;
  $('login').hidden = true;
  $('app').hidden = false;
  startInbox();
  const fromHash = decodeURIComponent(location.hash.slice(1));
  await joinRoom(ROOM_ID.test(fromHash) ? fromHash : DEFAULT_ROOMS[0]);
}

// ---------------------------------------------------------------- rooms

function renderRooms() {
  const list = $('rooms');
  list.replaceChildren(
    ...[...rooms].map((id) => {
      const button = el('button', `#${id}`, { type: 'button', 'data-room': id });
      if (current?.id === id) button.setAttribute('aria-current', 'true');
      button.addEventListener('click', () => joinRoom(id));
      const item = el('li');
      item.append(button);
      return item;
    }),
  );
}

async function leaveRoom() {
  const view = current;
  if (!view) return;
  current = null;
  for (const off of view.offs) off();
  await view.sub?.unsubscribe().catch(() => {});
}

async function joinRoom(id) {
  if (current?.id === id) return;
  await leaveRoom();
  rooms.add(id);
  history.replaceState(null, '', `#${encodeURIComponent(id)}`);
  const channel = client.channel(id);
  const view = {
    id,
    channel,
    me,
    list: $('messages'),
    problem: showProblem,
    items: new Map(),
    offs: [],
    sub: null,
    older: null,
    online: new Set(),
    seenDuringRefresh: null,
  };
  current = view;
  renderRooms();
  $('room-title').textContent = `#${id}`;
  $('messages').replaceChildren();
  $('presence').replaceChildren();
  $('presence-count').textContent = '0';
  $('earlier').hidden = true;

  view.offs.push(
    channel.on('retract', (frame) => removeMessage(view, frame.id)),
    // an edit (the message with its new text), and reactions: live, and after a resume what
    // changed while the page was offline
    channel.on('update', (update) => current === view && applyUpdate(view, update)),
    channel.on('summary', (summary) => current === view && applySummary(view, summary)),
    channel.on('unsubscribed', (info) => {
      if (info?.code === 'banned' || info?.code === 'forbidden') showProblem(`You can no longer read #${id}: ${info.reason ?? info.code}`);
    }),
    channel.on('error', (error) => showProblem(`#${id}: ${error.reason ?? error.message ?? error.code}`)),
    // one presence frame carries every join and leave of its interval: apply them all, draw once
    channel.presence.on('change', ({ joined, left }) => setOnline(view, joined, left)),
    // after a reconnect the SDK resumes the messages by itself; who is online is read again,
    // since joins and leaves of the time offline were not seen
    channel.on('subscribed', (info) => info?.resumed && refreshRoster(view)),
  );

  // The newest page of history first, then a live subscription from the newest seq seen: the
  // subscription replays whatever came after it, so nothing is missed and nothing shown twice.
  try {
    view.older = channel.history({ limit: PAGE })[Symbol.asyncIterator]();
    const newest = await loadOlder(view);
    if (current !== view) return;
    view.sub = channel.subscribe((message) => current === view && addMessage(view, message), { since: newest });
    await view.sub.ready;
    await refreshRoster(view);
  } catch (error) {
    if (current === view) showProblem(`#${id}: ${error.reason ?? error.message}`);
  }
}

/**
 * Renders up to PAGE more messages from history, older than those shown. Returns the highest seq
 * it saw (0 for an empty channel), which is where the live subscription starts.
 */
async function loadOlder(view) {
  const list = $('messages');
  const before = list.scrollHeight - list.scrollTop;
  let newest = 0;
  let count = 0;
  let done = false;
  while (count < PAGE) {
    const next = await view.older.next();
    if (current !== view) return newest;
    if (next.done) {
      done = true;
      break;
    }
    const message = next.value;
    newest = Math.max(newest, message.seq);
    addMessage(view, message);
    count += 1;
  }
  if (current === view) {
    $('earlier').hidden = done;
    list.scrollTop = list.scrollHeight - before;
  }
  return newest;
}

// ---------------------------------------------------------------- messages

function mentionsIn(text) {
  const names = new Set();
  for (const match of text.matchAll(MENTION)) {
    const name = match[1].replace(/[.:]+$/, '');
    if (USER_ID.test(name) && name !== me) names.add(name);
  }
  return [...names].slice(0, 100);
}

async function send(text) {
  const view = current;
  if (!view) return;
  const mentions = mentionsIn(text);
  await view.channel.publish({ text }, mentions.length ? { mentions } : {});
}

// ---------------------------------------------------------------- presence

/** Who is online, from the roster (members of an open channel are listed too, offline). */
async function refreshRoster(view) {
  if (current !== view) return;
  // joins and leaves that arrive while the roster is read are applied on top of it again
  const seen = [];
  view.seenDuringRefresh = seen;
  try {
    const members = await view.channel.presence.get();
    if (current !== view || view.seenDuringRefresh !== seen) return;
    view.online = new Set(members.filter((member) => member.online).map((member) => member.userId));
    for (const [userId, online] of seen) applyPresence(view, userId, online);
    renderPresence(view);
  } catch (error) {
    if (current === view) showProblem(`Could not read who is online: ${error.reason ?? error.message}`);
  } finally {
    if (view.seenDuringRefresh === seen) view.seenDuringRefresh = null;
  }
}

function applyPresence(view, userId, online) {
  if (online) view.online.add(userId);
  else view.online.delete(userId);
}

function setOnline(view, joined, left) {
  if (current !== view) return;
  const changes = [...joined.map((userId) => [userId, true]), ...left.map((userId) => [userId, false])];
  view.seenDuringRefresh?.push(...changes);
  for (const [userId, online] of changes) applyPresence(view, userId, online);
  renderPresence(view);
}

function renderPresence(view) {
  const names = [...view.online].sort();
  $('presence').replaceChildren(...names.map((name) => el('li', name, { 'data-user': name })));
  $('presence-count').textContent = String(names.length);
}

// ---------------------------------------------------------------- inbox

let unread = 0;

function startInbox() {
  client.inbox.subscribe((notification) => {
    const payload = notification.payload ?? {};
    const text =
      notification.type === 'mention'
        ? `${payload.senderId ?? 'someone'} mentioned you in #${payload.channelId ?? '?'}`
        : `${notification.type}: ${JSON.stringify(payload)}`;
    // a button, so that the keyboard reaches it as well as the mouse
    const open = el('button', text, { type: 'button', title: new Date(notification.timestamp).toLocaleString() });
    const item = el('li', undefined, { 'data-id': notification.id, 'data-type': notification.type, 'data-read': 'false' });
    item.append(open);
    open.addEventListener('click', () => {
      if (item.dataset.read === 'false') {
        item.dataset.read = 'true';
        unread -= 1;
        $('inbox-count').textContent = String(unread);
      }
      if (notification.type === 'mention' && typeof payload.channelId === 'string' && ROOM_ID.test(payload.channelId)) joinRoom(payload.channelId);
    });
    $('inbox').prepend(item);
    unread += 1;
    $('inbox-count').textContent = String(unread);
  });
}

// ---------------------------------------------------------------- start

async function main() {
  let realtimeUrl;
  try {
    ({ realtimeUrl } = await (await fetch('/config.json')).json());
  } catch {
    showProblem('The example server does not answer: run `npm run example:chat`.');
    return;
  }
  try {
    sdk = await import(`${realtimeUrl}/sdk/client.js`);
  } catch {
    showProblem(`Could not load the client SDK from ${realtimeUrl}/sdk/client.js: is the service running (npm start)?`);
    return;
  }

  $('login').addEventListener('submit', async (event) => {
    event.preventDefault();
    const userId = $('login-user').value.trim();
    if (!USER_ID.test(userId)) return showProblem('A name is 1-128 of A-Z a-z 0-9 _ . : @ -');
    try {
      await signIn(userId, realtimeUrl);
    } catch (error) {
      showProblem(`Could not sign in: ${error.message}`);
    }
  });

  $('room-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const id = $('room-input').value.trim();
    if (!ROOM_ID.test(id)) return showProblem('A room name is 1-128 of A-Z a-z 0-9 _ . : @ = -');
    $('room-input').value = '';
    joinRoom(id);
  });

  $('composer').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('composer-text');
    const text = input.value;
    if (!text.trim()) return;
    input.value = '';
    try {
      await send(text);
    } catch (error) {
      if (!input.value) input.value = text;
      showProblem(`Not sent: ${error.reason ?? error.message}`);
    }
  });

  $('earlier').addEventListener('click', async () => {
    const view = current;
    if (!view?.older) return;
    $('earlier').disabled = true;
    try {
      await loadOlder(view);
    } catch (error) {
      showProblem(`Could not load earlier messages: ${error.reason ?? error.message}`);
    } finally {
      $('earlier').disabled = false;
    }
  });

  document.body.dataset.ready = 'true';
}

main();
