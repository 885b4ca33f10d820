import type { Task } from 'graphile-worker';
import { recordAudit } from '@rtm/accounts';
import { publishLog, type NatsConnection, type Subjects } from '@rtm/bus';
import { withTransaction, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { disableFailingEndpoint, failingEndpointIds, recordEvent, redactWebhookUrl } from '@rtm/webhooks';

export const DISABLE_ENDPOINTS_TASK = 'disable_failing_endpoints';
/** The check's job key and queue: one waiting job, and one check at a time, across every dispatcher. */
export const DISABLE_ENDPOINTS_JOB = { jobKey: DISABLE_ENDPOINTS_TASK, queueName: DISABLE_ENDPOINTS_TASK } as const;

/** Endpoints disabled per pass at most (the rest wait for the next pass). */
const BATCH = 500;

/**
 * `disable_failing_endpoints` (once at start, then every WEBHOOK_DISABLE_CHECK_MS): disables each
 * enabled endpoint whose attempts have all failed for WEBHOOK_DISABLE_AFTER (`failing_since`, kept
 * by the deliverer's record statement; the statements are in libs/webhooks' endpoints.ts), with
 * reason `failing`. In the same transaction, an `endpoint.disabled` event for the environment's other endpoints that take it (the disabled one
 * no longer matches) and an audit entry by the system; after commit, a warning on the
 * environment's live log. The disable is here, off the record path, so recording attempts stays
 * one group-committed statement. Deliveries of the endpoint still pending are attempted until
 * delivered or dropped (they were accepted before it was disabled). The task schedules its next
 * run itself (`run_at`, under its job key), as the notification sweep does.
 */
export const disableFailingEndpoints =
  (deps: {
    pool: Pool;
    config: { WEBHOOK_DISABLE_AFTER: number; WEBHOOK_DISABLE_CHECK_MS: number };
    nc: NatsConnection;
    subjects: Subjects;
    log: Logger;
  }): Task =>
  async (_payload, helpers) => {
    const { pool, config, nc, subjects, log } = deps;
    try {
      for (const id of await failingEndpointIds(pool, config.WEBHOOK_DISABLE_AFTER, BATCH)) {
        const disabled = await withTransaction(pool, async (client) => {
          const endpoint = await disableFailingEndpoint(client, id, config.WEBHOOK_DISABLE_AFTER);
          if (!endpoint) return undefined;
          // the other endpoints (perhaps other parties), the audit log and the live log see the URL redacted
          const data = {
            endpointId: endpoint.id,
            url: redactWebhookUrl(endpoint.url),
            failingSince: endpoint.failing_since.toISOString(),
            disabledAt: endpoint.disabled_at.toISOString(),
          };
          await recordEvent(client, { environmentId: endpoint.environment_id, type: 'endpoint.disabled', channelId: null, data, except: endpoint.id });
          await recordAudit(
            client,
            { kind: 'system' },
            {
              organizationId: endpoint.organization_id,
              action: 'webhook_endpoint.disabled',
              targetType: 'webhook_endpoint',
              targetId: endpoint.id,
              details: { environmentId: endpoint.environment_id, url: data.url, reason: 'failing', failingSince: data.failingSince },
            },
          );
          return { environmentId: endpoint.environment_id, data };
        });
        if (!disabled) continue;
        publishLog(nc, subjects, disabled.environmentId, 'warn', 'webhook.endpoint_disabled', { ...disabled.data, reason: 'failing' });
        log.info({ endpointId: id, environmentId: disabled.environmentId }, 'disabled a failing webhook endpoint');
      }
    } catch (error) {
      log.warn({ err: error }, 'the failing endpoints check failed');
    }
    // this job is running, so this adds the next one (graphile-worker keeps one job under the key)
    await helpers.addJob(DISABLE_ENDPOINTS_TASK, {}, { ...DISABLE_ENDPOINTS_JOB, runAt: new Date(Date.now() + config.WEBHOOK_DISABLE_CHECK_MS) });
  };
