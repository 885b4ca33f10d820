/**
 * How the benchmarks record and print their figures: latency histograms in µs (hdr-histogram,
 * three significant digits) and whole numbers with thousands separators.
 */
import * as hdr from 'hdr-histogram-js';

/** A latency histogram in µs, up to `highestMicros`. */
export const histogram = (highestMicros: number): hdr.Histogram =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: highestMicros, numberOfSignificantValueDigits: 3 });

/** Thousands separated, no decimals; `n/a` for what could not be measured (NaN, ∞). */
export const fmt = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
