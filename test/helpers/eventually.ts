/**
 * Waits for a condition with a deadline: polls `probe` until it returns a truthy value (returned)
 * or the time runs out (then throws naming what was awaited). Every wait in the tests goes
 * through here, so none can hang a test run.
 *
 * - `eventually('what', probe, limitMs = 15_000)`
 * - `eventually(probe, { timeoutMs = 60_000, intervalMs = 100, what })`
 */
type Probe<T> = () => Promise<T | false | null | undefined | 0 | ''>;

export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
  what?: string;
}

export async function eventually<T>(what: string, probe: Probe<T>, limitMs?: number): Promise<T>;
export async function eventually<T>(probe: Probe<T>, options?: EventuallyOptions): Promise<T>;
export async function eventually<T>(first: string | Probe<T>, second?: Probe<T> | EventuallyOptions, third?: number): Promise<T> {
  const [what, probe, timeoutMs, intervalMs] =
    typeof first === 'string'
      ? [first, second as Probe<T>, third ?? 15_000, 100]
      : [
          (second as EventuallyOptions | undefined)?.what ?? 'condition',
          first,
          (second as EventuallyOptions | undefined)?.timeoutMs ?? 60_000,
          (second as EventuallyOptions | undefined)?.intervalMs ?? 100,
        ];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as T;
    if (Date.now() > deadline) throw new Error(`${what}: still not true after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
