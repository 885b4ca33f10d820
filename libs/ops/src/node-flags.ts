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
 * The gateway starts with a 192 MB old generation before its first mark-compact (V8 starts
 * small and grows the limit with each collection). A reconnect storm into a fresh gateway (the
 * clients of one that went away) grows its heap by ~5 KB a socket, 10,000 sockets ~54 MB in
 * ~14 s; from V8's small start that ran 7–8 mark-compact cycles during the storm, and another
 * tenant's slow requests came in ~200 ms windows around each. With 192 MB the same storm runs
 * one, and a neighbour's publish p99 beside it fell from ~35–45 to ~28–38 ms (docs/benchmarks.md,
 * "Large channel"). 256 MB ran none but left the gateway ~1.5–2 KB more resident memory per socket
 * after the storm (8.5 KB, over the 8 KiB a socket may cost); 128 MB still ran three. The price:
 * garbage is collected by scavenges only until the old generation first reaches 192 MB, so a young
 * gateway's resident memory may be up to ~150 MB higher than it needs meanwhile.
 */
export type ProcessKind = 'gateway' | 'channel-node' | 'dispatcher';

export const NODE_FLAGS: Readonly<Record<ProcessKind, readonly string[]>> = {
  gateway: ['--initial-old-space-size=192'],
  'channel-node': ['--max-semi-space-size=64'],
  dispatcher: [],
};
