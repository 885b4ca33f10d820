import { z } from 'zod';
import { NOT_STORABLE, isStorableText } from './json-text.ts';

/** `[A-Za-z0-9_.:@-]`, 1-128 chars. */
export const UserId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:@-]+$/, 'must be 1-128 of [A-Za-z0-9_.:@-]');

/** `[A-Za-z0-9_.:@=-]`, 1-128 chars. */
export const ChannelId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:@=-]+$/, 'must be 1-128 of [A-Za-z0-9_.:@=-]');

/** What a `quota_exceeded` refusal adds: the spent quota (docs/quotas.md). */
export const QuotaRefusal = z
  .object({
    quota: z.enum(['monthlyMessages', 'monthlyConnectionMinutes']),
    limit: z.number().int(),
    used: z.number().int().describe('Used this month when refused (messages, or whole connection-minutes).'),
    resetsAt: z.iso.datetime({ offset: true }).describe('The first instant of the next month (UTC): the quota starts again from 0.'),
  })
  .meta({ id: 'QuotaRefusal', description: 'The monthly quota that is spent (only with the code `quota_exceeded`).' });

export const ErrorBody = z
  .object({ code: z.string(), reason: z.string().optional(), quota: QuotaRefusal.optional() })
  .meta({ id: 'Error', description: 'Every non-2xx response; the header x-service-error repeats code.' });

/** ISO 8601 date-time string. */
export const IsoTime = z.iso.datetime({ offset: true });

/** Serialized size of a JSON value in bytes (UTF-8). */
export function jsonSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Free text stored as Postgres text: at most `max` characters, no NUL, no lone surrogate. */
export function storableText(max: number, min = 1) {
  return z.string().min(min).max(max).refine(isStorableText, NOT_STORABLE);
}
