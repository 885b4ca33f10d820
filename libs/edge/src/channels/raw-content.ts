/**
 * A publish's `content` as the text it arrived as: a slice of the HTTP body or socket frame,
 * found by the span scanner of libs/schemas (json-span.ts). The text has already been parsed
 * and validated (body parser or frame reader, then the route's schema), so the slice is the very
 * value the schema accepted; the last of duplicate `content` keys, as JSON.parse keeps.
 */
import { elementSpans, rootSpan, valueSpan, type Span } from '@rtm/schemas';

function slice(text: string, span: Span | undefined): string {
  if (!span) throw new Error('content not found in the text that was validated');
  return text.slice(span.start, span.end);
}

/** The `content` of a single publish (the body of the publish route, or a socket `publish` frame). */
export function contentText(text: string | undefined): string {
  if (text === undefined) throw new Error('the raw text of the request is missing');
  return slice(text, valueSpan(text, ['content']));
}

/** The `content` of each message of a batch body (`{messages: [...]}`), in order. */
export function batchContentTexts(text: string | undefined): string[] {
  if (text === undefined) throw new Error('the raw text of the request is missing');
  const spans = elementSpans(text, valueSpan(text, ['messages'], rootSpan(text)) ?? { start: 0, end: 0 });
  if (!spans) throw new Error('messages not found in the text that was validated');
  return spans.map((item) => slice(text, valueSpan(text, ['content'], item)));
}
