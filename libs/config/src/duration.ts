const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `250ms`, `30s`, `5m`, `2h`, `7d` (or a bare number of milliseconds) into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration like 30s, 5m, 2h or 7d`);
  const value = Number(match[1]) * UNITS[match[2] ?? 'ms']!;
  if (!Number.isFinite(value) || value < 0) throw new Error(`"${text}" is out of range`);
  return Math.round(value);
}

/** Parses a comma-separated retry schedule (`30s,5m,30m,2h,6h`) into delays in milliseconds. */
export function parseSchedule(text: string): readonly number[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 20) throw new Error('must list 1-20 durations, like 30s,5m,30m,2h,6h');
  return Object.freeze(parts.map(parseDuration));
}
