/**
 * What the owner of a webhook partition routes (push-intake.ts), without NATS: a job's
 * deliveries grouped by the partition that owns them. A notice's format is libs/webhooks'
 * (push-notice.ts).
 */

/** A delivery as notices carry it. */
export type Delivery = [id: string, environmentId: string];

/** Rows of the ledger as deliveries, by the webhook partition of their environment (`partitionOf`). */
export function byPartition(rows: readonly { id: string; environment_id: string }[], partitionOf: (environmentId: string) => number): Map<number, Delivery[]> {
  const groups = new Map<number, Delivery[]>();
  for (const row of rows) {
    const partition = partitionOf(row.environment_id);
    const list = groups.get(partition);
    if (list) list.push([row.id, row.environment_id]);
    else groups.set(partition, [[row.id, row.environment_id]]);
  }
  return groups;
}
