/**
 * The bare hops' owner (publish-hops.ts), in a child process of the benchmark's own file: a NATS
 * subscriber that group-commits what arrives while a commit runs, as the channel-node does, so
 * the baseline's Postgres work per message is a floor and not a transaction each:
 * - one commit at a time, of every bundle that arrived meanwhile: ONE statement (named, planned
 *   once) that advances each channel's seq counter (`bench_hops_channels.last_seq`, as the
 *   service's `channels.last_seq`) and inserts the messages (`bench_hops_messages`, as its
 *   `messages` insert), tables of its own;
 * - seqs are assigned from its cache of the channels' counters; a channel it has not seen is
 *   created (or read) first, in a round trip of its own, as the service loads a channel it has
 *   not cached (the cases prime every channel, so the timed windows see only the one statement);
 * - after the commit, one frame per message to `<prefix>.frames.<channel>`, then one reply per
 *   bundle: `<ts> <seq> …` in the bundle's order, or `error` when the commit failed (nothing of
 *   it is kept: the counters advance only when the statement succeeded).
 */
import { connect, type Msg } from 'nats';
import { createPool } from '@rtm/db';
import { announceListening } from './child-server.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const TABLES_SQL = `create table if not exists bench_hops_channels (
    pk bigint generated always as identity primary key, id text not null unique, last_seq bigint not null default 0);
  create table if not exists bench_hops_messages (
    channel_pk bigint not null, seq bigint not null, content json not null, ts bigint not null, primary key (channel_pk, seq))`;

/** Creates the channels not seen yet ($1) or reads them when they exist. */
const CHANNELS_SQL = `insert into bench_hops_channels (id) select * from unnest($1::text[])
  on conflict (id) do update set id = excluded.id returning pk, id, last_seq`;

/**
 * A group's commit: the counters ($1 pks, $2 their new seqs) and the messages. "pk = any($1)"
 * finds the rows by the key index under a generic plan, as the service's statement does.
 */
const WRITE_SQL = `with advanced as (
    update bench_hops_channels c set last_seq = v.seq
    from unnest($1::bigint[], $2::bigint[]) as v(pk, seq)
    where c.pk = any($1::bigint[]) and c.pk = v.pk)
  insert into bench_hops_messages (channel_pk, seq, content, ts)
  select v.pk, v.seq, v.content::json, $6::bigint from unnest($3::bigint[], $4::bigint[], $5::text[]) as v(pk, seq, content)`;

interface Channel {
  pk: number;
  seq: number;
}

/** In the child: the owner; subscribes to `<prefix>.owner` and says it is ready. */
export async function serveHopsOwner(natsUrl: string, prefix: string, databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, { max: 2, name: 'hops', genericPlans: true });
  await pool.query(TABLES_SQL);
  const nc = await connect({ servers: natsUrl });
  const channels = new Map<string, Channel>();

  const commit = async (bundles: readonly Msg[]) => {
    // each bundle's lines: `<channel> <content JSON>`
    const lines = bundles.map((msg) =>
      decoder
        .decode(msg.data)
        .split('\n')
        .map((line) => {
          const space = line.indexOf(' ');
          return { channel: line.slice(0, space), text: line.slice(space + 1) };
        }),
    );
    const unseen = [...new Set(lines.flat().map((m) => m.channel))].filter((channel) => !channels.has(channel));
    if (unseen.length > 0) {
      const { rows } = await pool.query<{ pk: string; id: string; last_seq: string }>({ name: 'hops_channels', text: CHANNELS_SQL, values: [unseen] });
      for (const row of rows) channels.set(row.id, { pk: Number(row.pk), seq: Number(row.last_seq) });
    }
    const advanced = new Map<Channel, number>();
    const pks: number[] = [];
    const seqs: number[] = [];
    const texts: string[] = [];
    const replies = lines.map((messages) =>
      messages.map(({ channel, text }) => {
        const known = channels.get(channel)!;
        const seq = (advanced.get(known) ?? known.seq) + 1;
        advanced.set(known, seq);
        pks.push(known.pk);
        seqs.push(seq);
        texts.push(text);
        return seq;
      }),
    );
    const ts = Date.now();
    await pool.query({
      name: 'hops_write',
      text: WRITE_SQL,
      values: [[...advanced.keys()].map((c) => c.pk), [...advanced.values()], pks, seqs, texts, ts],
    });
    for (const [known, seq] of advanced) known.seq = seq;
    lines.forEach((messages, b) =>
      messages.forEach(({ channel, text }, i) =>
        nc.publish(`${prefix}.frames.${channel}`, encoder.encode(`{"op":"message","seq":${replies[b]![i]},"timestamp":${ts},"content":${text}}`)),
      ),
    );
    bundles.forEach((msg, b) => msg.respond(encoder.encode(`${ts} ${replies[b]!.join(' ')}`)));
  };

  let queued: Msg[] = [];
  let writing = false;
  let scheduled = false;
  const write = () => {
    scheduled = false;
    if (writing || queued.length === 0) return;
    const bundles = queued;
    queued = [];
    writing = true;
    commit(bundles)
      .catch(() => {
        for (const msg of bundles) msg.respond(encoder.encode('error'));
      })
      .finally(() => {
        writing = false;
        write();
      });
  };
  nc.subscribe(`${prefix}.owner`, {
    callback: (error, msg) => {
      if (error) return;
      queued.push(msg);
      // what else arrived in this turn joins it; while a commit runs, the next group waits for it
      if (!scheduled && !writing) {
        scheduled = true;
        setImmediate(write);
      }
    },
  });
  await nc.flush();
  announceListening(null);
}
