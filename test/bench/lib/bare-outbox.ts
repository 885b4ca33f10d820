/**
 * The webhook benchmark's second baseline (test/bench/webhooks.bench.ts): a bare outbox
 * dispatcher, a loop with no service code that reads committed deliveries from Postgres, signs
 * them as the service does, POSTs them with undici and keeps a cursor. What reading committed
 * events and advancing a cursor costs with nothing else: no claims, no leases, no attempt
 * records, no retries beyond sending again, no circuit breaker, no rate limits.
 *
 * It reads the rows the service's own commit statement appends to the delivery log
 * (`webhook_log`, migration 000019), by the same position the service's owner reads them by: the
 * writing transaction's id (`tx`, xid8, on the `(partition, tx)` index), taking only rows of
 * transactions older than every transaction still running
 * (`pg_snapshot_xmin(pg_current_snapshot())`): those have all committed or rolled back, so
 * whatever is above the cursor is final. It writes no outcome: only the cursor.
 *
 * Loop: one reader, at most 1,024 rows read but not yet answered, reads of 512 rows (another at
 * once after a full one, 5 ms later otherwise); 64 senders on an undici Pool of 64 connections;
 * the cursor (a one-row table) updated every 200 ms or every 512 answered deliveries, to the last
 * row before which every delivery was answered.
 */
import { Pool as HttpPool } from 'undici';
import type { createPool } from '@rtm/db';
import { SIGNATURE_HEADER, signatureHeader, standardHeaders } from '@rtm/webhooks';
import { sleep } from './figures.ts';

const READ_BATCH = 512;
const MAX_UNANSWERED = 1_024;
const EMPTY_POLL_MS = 5;
const CURSOR_EVERY_MS = 200;
const CURSOR_EVERY_DELIVERIES = 512;
const IN_FLIGHT = 64;

type Pool = ReturnType<typeof createPool>;

/** The cursor table, starting at the log's current end (the service's rows before it are not read). */
export async function prepareBareOutbox(pool: Pool): Promise<void> {
  await pool.query(`create table bare_outbox_cursor (one boolean primary key default true check (one), tx xid8 not null, id text not null)`);
  await pool.query(`insert into bare_outbox_cursor (tx, id) values (pg_snapshot_xmin(pg_current_snapshot()), '')`);
}

/** Removes the cursor table (the log's rows go with the bench's database). */
export async function dropBareOutbox(pool: Pool): Promise<void> {
  await pool.query('drop table if exists bare_outbox_cursor');
}

interface Row {
  id: string;
  event_id: string;
  body: string;
  tx: string;
  answered: boolean;
}

export interface BareOutboxRun {
  /** Deliveries answered 2xx. */
  answered: number;
  /** Reads of `webhook_deliveries`, empty ones included. */
  reads: number;
  /** `update`s of the cursor row. */
  cursorUpdates: number;
  /** POSTs not answered 2xx (sent again). */
  failures: number;
}

/**
 * Runs the loop until `expected` deliveries have been answered and the cursor is past them all.
 * `origin` is the receiver's `http://host:port`, `path` its path.
 */
export async function runBareOutbox(pool: Pool, partition: number, origin: string, path: string, secret: string, expected: number): Promise<BareOutboxRun> {
  const http = new HttpPool(origin, { connections: IN_FLIGHT });
  const stats: BareOutboxRun = { answered: 0, reads: 0, cursorUpdates: 0, failures: 0 };
  const start = (await pool.query<{ tx: string; id: string }>('select tx::text, id from bare_outbox_cursor')).rows[0]!;
  let readTx = start.tx;
  let readId = start.id;
  // rows read, in position order, until the cursor passes them
  const window: Row[] = [];
  let head = 0;
  const toSend: Row[] = [];
  let unanswered = 0;
  let done = false;
  const idleSenders: (() => void)[] = [];
  let wakeReader: (() => void) | null = null;
  const wake = (which: 'senders' | 'reader') => {
    if (which === 'senders') {
      for (const resolve of idleSenders.splice(0)) resolve();
    } else {
      const resolve = wakeReader;
      wakeReader = null;
      resolve?.();
    }
  };

  const reader = async () => {
    while (!done) {
      if (unanswered >= MAX_UNANSWERED) {
        await new Promise<void>((resolve) => (wakeReader = resolve));
        continue;
      }
      const { rows } = await pool.query<{ id: string; event_id: string; body: string; tx: string }>(
        `select id, event_id, body, tx::text as tx from webhook_log
         where partition = $3 and (tx, id) > ($1::xid8, $2::text) and tx < pg_snapshot_xmin(pg_current_snapshot())
         order by tx, id limit ${READ_BATCH}`,
        [readTx, readId, partition],
      );
      stats.reads++;
      if (rows.length > 0) {
        const last = rows[rows.length - 1]!;
        readTx = last.tx;
        readId = last.id;
        for (const row of rows) {
          const entry = { ...row, answered: false };
          window.push(entry);
          toSend.push(entry);
        }
        unanswered += rows.length;
        wake('senders');
      }
      if (rows.length < READ_BATCH && !done) await sleep(EMPTY_POLL_MS);
    }
  };

  // the cursor: past the longest answered prefix of what was read
  let sinceCursor = 0;
  let cursorWrite: Promise<void> | null = null;
  const advanceCursor = async () => {
    let last: Row | undefined;
    while (head < window.length && window[head]!.answered) last = window[head++];
    if (head > 4_096) {
      window.splice(0, head);
      head = 0;
    }
    if (!last) return;
    sinceCursor = 0;
    stats.cursorUpdates++;
    await pool.query('update bare_outbox_cursor set tx = $1::xid8, id = $2', [last.tx, last.id]);
  };
  const cursorNow = () => {
    if (cursorWrite) return cursorWrite;
    cursorWrite = advanceCursor().finally(() => (cursorWrite = null));
    return cursorWrite;
  };
  const ticker = setInterval(() => void cursorNow(), CURSOR_EVERY_MS);

  const sender = async () => {
    while (!done) {
      const row = toSend.shift();
      if (!row) {
        await new Promise<void>((resolve) => idleSenders.push(resolve));
        continue;
      }
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signatureHeader([secret], timestamp, row.body),
        ...standardHeaders([secret], row.event_id, timestamp, row.body),
      };
      let ok = false;
      try {
        const res = await http.request({ method: 'POST', path, headers, body: row.body });
        await res.body.dump();
        ok = res.statusCode >= 200 && res.statusCode < 300;
      } catch {
        ok = false;
      }
      if (!ok) {
        stats.failures++;
        toSend.push(row);
        await sleep(10);
        continue;
      }
      row.answered = true;
      stats.answered++;
      unanswered--;
      wake('reader');
      if (++sinceCursor >= CURSOR_EVERY_DELIVERIES) void cursorNow();
      if (stats.answered >= expected && !done) {
        done = true;
        wake('reader');
        wake('senders');
      }
    }
  };

  try {
    await Promise.all([reader(), ...Array.from({ length: IN_FLIGHT }, sender)]);
  } finally {
    clearInterval(ticker);
    await cursorWrite;
    await cursorNow();
    await http.close();
  }
  return stats;
}
