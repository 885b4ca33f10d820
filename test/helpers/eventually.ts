/** Polls `probe` until it returns true or `limitMs` passes (then throws naming `what`). */
export async function eventually(what: string, probe: () => Promise<boolean>, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`${what}: still not true after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
