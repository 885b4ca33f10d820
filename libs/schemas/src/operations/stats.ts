import { ErrorBody } from '../common.ts';
import { StatsList, StatsQuery } from '../stats.ts';
import { SECRET_KEY, type Operations } from './operation.ts';

/** What GET /v1/stats and its dashboard twin say of their answer. */
export const STATS_DESCRIPTION =
  "The environment's usage, one entry per interval of `unit` (UTC; `month` is a calendar month) whose start lies " +
  'between `start` and `end`, at most `limit` (default 100, maximum 1000), newest first unless `direction` is ' +
  '`forwards`. Defaults: `unit` `minute`, `end` now, `start` `end` less `limit` units. An interval without usage is ' +
  'left out. The current hour, day and month are computed from the finer intervals at read time, so the newest entry ' +
  'holds every minute flushed so far (a process flushes its counts every few seconds). Minutes are kept 48 hours, ' +
  'hours 90 days, days and months 2 years (docs/stats.md). A bad `unit`, `direction`, `limit` or time, or `start` ' +
  'after `end`: 400 `invalid_request`.';

/** Control plane: the usage of the secret key's environment (another environment's never shows). */
export const statsOperations = {
  getStats: {
    method: 'GET',
    url: '/v1/stats',
    schema: {
      operationId: 'getStats',
      summary: 'Usage by minute, hour, day or month',
      description: STATS_DESCRIPTION,
      tags: ['stats'],
      security: SECRET_KEY,
      querystring: StatsQuery,
      response: { 200: StatsList, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody },
    },
  },
} as const satisfies Operations;
