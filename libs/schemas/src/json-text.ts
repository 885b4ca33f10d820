/**
 * The rule every JSON text from a client passes before it is parsed (HTTP bodies and socket
 * frames alike): nesting deeper than MAX_JSON_DEPTH arrays/objects is refused, checked in one
 * linear scan of the text without recursion (deeper JSON overflowed the stack of recursive code
 * such as serialisers and size measurements).
 *
 * Strings are not restricted here: message content and notification payloads are stored as the
 * JSON text that was sent, so `\u0000` and lone surrogate escapes in them round-trip losslessly.
 * Fields stored as Postgres text (ids, types, reasons) refuse what text cannot hold through
 * `isStorableText` in their schemas.
 */

export const MAX_JSON_DEPTH = 64;

export class JsonTextError extends Error {
  override name = 'JsonTextError';
}

/** Throws JsonTextError when `text` nests deeper than `maxDepth`; says nothing of JSON syntax. */
export function checkJsonText(text: string, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x22 /* " */) inString = false;
      else if (c === 0x5c /* \ */) i++;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) throw new JsonTextError(`JSON is nested deeper than ${maxDepth} levels`);
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
}

/** `checkJsonText`, then JSON.parse (whose SyntaxError the caller maps to "malformed JSON"). */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkJsonText(text, maxDepth);
  return JSON.parse(text);
}

/** True when a string can be stored as Postgres text unchanged: no NUL, no lone UTF-16 surrogate. */
export function isStorableText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** The message of a refused text field. */
export const NOT_STORABLE = 'must not contain U+0000 (NUL) or a lone UTF-16 surrogate';
