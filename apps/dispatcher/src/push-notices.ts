/**
 * What the owner of a webhook partition reads off the bus and routes (push-intake.ts), without
 * NATS: a notice's deliveries, and a job's deliveries grouped by the partition that owns them.
 */

/** A delivery as notices carry it. */
export type Delivery = [id: string, environmentId: string];

/**
 * The deliveries of a notice's decoded body: the `[id, environmentId]` pairs of a JSON array;
 * anything else in it is left out, and a body that is not an array has none.
 */
export function noticeDeliveries(body: unknown): Delivery[] {
  return Array.isArray(body)
    ? body.filter((d): d is Delivery => Array.isArray(d) && typeof d[0] === 'string' && typeof d[1] === 'string')
    : [];
}

/** Rows of the ledger as deliveries, by the webhook partition of their environment (`partitionOf`). */
export function byPartition(
  rows: readonly { id: string; environment_id: string }[],
  partitionOf: (environmentId: string) => number,
): Map<number, Delivery[]> {
  const groups = new Map<number, Delivery[]>();
  for (const row of rows) {
    const partition = partitionOf(row.environment_id);
    const list = groups.get(partition);
    if (list) list.push([row.id, row.environment_id]);
    else groups.set(partition, [[row.id, row.environment_id]]);
  }
  return groups;
}
