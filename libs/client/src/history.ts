import { RtmError } from './errors.ts';
import { getJson, type HttpContext } from './http.ts';
import { isSeq } from './ids.ts';
import type { HistoryOptions, Message } from './types.ts';

/** Iterates messages (`for await (const m of history)`) or whole pages (`history.pages()`). */
export interface History extends AsyncIterable<Message> {
  pages(): AsyncIterableIterator<Message[]>;
}

type Envelope = Omit<Message, 'channelId'>;

/**
 * History of a channel over `GET /v1/channels/{id}/history`, whose pages are always ascending by
 * seq. `backwards` (the default without `after`): newest first, as a chat shows scrolling up;
 * each request asks for the page below the oldest seq seen so far (`before`), and each page is
 * reversed. `forwards` (the default with `after`; without it from seq 0): oldest first, each
 * request starting after the newest seq seen. It ends when the server says `hasMore: false`.
 * Pages are fetched one at a time, as the iteration asks for them.
 */
export function historyOf(http: HttpContext, channelId: string, options: HistoryOptions): History {
  const { limit, before, after, direction } = options;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 500)) {
    throw new RtmError('invalid_request', 'limit must be an integer from 1 to 500');
  }
  if (before !== undefined && !isSeq(before)) throw new RtmError('invalid_request', 'before must be an integer from 0 to 2^53-1');
  if (after !== undefined && !isSeq(after)) throw new RtmError('invalid_request', 'after must be an integer from 0 to 2^53-1');
  if (direction !== undefined && direction !== 'backwards' && direction !== 'forwards') {
    throw new RtmError('invalid_request', "direction must be 'backwards' or 'forwards'");
  }
  if (direction === 'backwards' && after !== undefined) {
    throw new RtmError('invalid_request', "direction 'backwards' runs newest first and cannot start after a seq: use before");
  }
  const path = `/v1/channels/${encodeURIComponent(channelId)}/history`;

  async function* pages(): AsyncGenerator<Message[]> {
    const forward = direction === 'forwards' || after !== undefined;
    let cursorBefore = before;
    let cursorAfter = forward ? (after ?? 0) : undefined;
    for (;;) {
      const page = await getJson<{ messages: Envelope[]; hasMore: boolean }>(http, path, {
        limit,
        before: cursorBefore,
        after: cursorAfter,
      });
      const messages = page.messages.map((message) => ({ ...message, channelId }) as Message);
      if (messages.length === 0) return;
      if (forward) {
        cursorAfter = messages[messages.length - 1]!.seq;
        yield messages;
      } else {
        cursorBefore = messages[0]!.seq;
        yield messages.reverse();
      }
      if (!page.hasMore) return;
    }
  }

  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page;
    },
  };
}
