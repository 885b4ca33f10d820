/**
 * Bounds for bursts against per-second rate limits: a limit admits at most its rate in each
 * one-second window a burst spans, so a burst the machine made slow is checked against the
 * windows it really took, not against one.
 */
import assert from 'node:assert/strict';

/** Runs a burst and counts the one-second windows it spanned. */
export async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const first = Math.floor(Date.now() / 1_000);
  const value = await run();
  return [value, Math.floor(Date.now() / 1_000) - first + 1];
}

/** At most `perWindow` admitted in each window spanned, the rest refused, and at least one refused. */
export function assertBounded(what: string, admitted: number, refused: number, total: number, perWindow: number, windows: number): void {
  const most = perWindow * windows;
  assert.ok(admitted <= most, `${what}: admitted ${admitted} of ${total} in ${windows} window(s) of ${perWindow}`);
  assert.equal(admitted + refused, total, `${what}: ${admitted} admitted, ${refused} refused of ${total}`);
  assert.ok(refused >= 1, `${what}: nothing refused of ${total}`);
}
