/**
 * The `node` options each process runs with, before `--import tsx <entry>`: `npm start`
 * (scripts/start.ts) and the tests (test/helpers/cluster.ts) take them from here; the files in
 * deploy/ write the same flags out (test/deploy.files.test.ts checks each command line).
 *
 * The channel-node runs with a 64 MB young-generation semi-space (V8's default is 16 MB). A
 * group commit allocates a batch's frames, statement parameters and replies, which mostly die
 * within the batch; in a small new space they survive a scavenge or two first and are copied.
 * On 2 cores it raised batch publish by ~12 % and cut the channel-node's CPU per message from 25
 * to 20 µs (docs/benchmarks.md, "Publish"). The price is up to ~100 MB more resident memory per
 * channel-node under load, which a process holding no sockets can afford. The gateway keeps the
 * default young generation: its memory is per connection, and the flag gained it only 1–2 µs per
 * message.
 *
 * The gateway starts with a 256 MB old generation before its first mark-compact (V8 starts
 * small and grows the limit with each collection). A reconnect storm into a fresh gateway (the
 * clients of one that went away) grows its heap by ~5 KB a socket, 10,000 sockets ~50 MB in
 * ~14 s; from V8's small start that ran 7–8 mark-compact cycles during the storm, each holding
 * the loop and every other tenant's requests behind it in ~200 ms windows. With the larger start
 * the same storm runs none, and a neighbour's publish p99 beside it fell from ~40 to ~25 ms
 * (docs/benchmarks.md, "Large channel"). The price: garbage is collected by scavenges only until
 * the old generation reaches 256 MB, so a young gateway's resident memory may be up to ~200 MB
 * higher than it needs; an idle socket's share, measured after a collection, is unchanged.
 */
export type ProcessKind = 'gateway' | 'channel-node' | 'dispatcher';

export const NODE_FLAGS: Readonly<Record<ProcessKind, readonly string[]>> = {
  gateway: ['--initial-old-space-size=192'],
  'channel-node': ['--max-semi-space-size=64'],
  dispatcher: [],
};
