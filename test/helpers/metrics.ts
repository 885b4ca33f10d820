/**
 * The sum, over the lines of a process's Prometheus text (`/internal/metrics`) that match
 * `pattern`, of the number its first group captures: one sample, or every label set of a family.
 */
export async function metricTotal(internalUrl: string, pattern: RegExp): Promise<number> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (match) total += Number(match[1]);
  }
  return total;
}
