import { h } from '../dom.ts';
import { openLiveLog, type LiveState, type LogFrame } from '../live-log.ts';

const WORDS: Record<LiveState['state'], string> = {
  connecting: 'Connecting to the live log…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  stopped: 'Not live',
};

/** A status line for a view kept current from the live log (announced politely to screen readers). */
export function liveStatus(): { element: HTMLElement; update(state: LiveState): void } {
  const element = h('span', { class: 'badge', role: 'status', 'data-testid': 'live-status' }, WORDS.connecting);
  return {
    element,
    update(state) {
      const why = state.state === 'reconnecting' || state.state === 'stopped' ? `: ${state.why}` : '';
      element.textContent = `${WORDS[state.state]}${why}`;
      element.className = `badge ${state.state === 'live' ? 'live' : state.state === 'stopped' ? 'error' : ''}`;
    },
  };
}

/**
 * Calls `changed` when the environment's live log shows an event that `matches`, at most once
 * per 300 ms, and each time the log is (re)connected: what happened between the view's first
 * load, or a disconnection, and the log being live is not replayed. Returns the function that
 * stops it (for the view's `onLeave`).
 */
export function whenLogged(envId: string, matches: (frame: LogFrame) => boolean, changed: () => void, onState: (state: LiveState) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const soon = () => {
    if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        changed();
      }, 300);
    }
  };
  const live = openLiveLog(
    envId,
    (frame) => {
      if (matches(frame)) soon();
    },
    (state) => {
      onState(state);
      if (state.state === 'live') soon();
    },
  );
  return () => {
    clearTimeout(timer);
    live.close();
  };
}

const MESSAGE_EVENTS = new Set(['message.published', 'message.retracted']);

/** A message published or retracted in `channelId` (any channel of the environment when null). */
export const messageActivity = (channelId: string | null) => (frame: LogFrame) =>
  MESSAGE_EVENTS.has(frame.event) && (channelId === null || frame.data.channelId === channelId);
