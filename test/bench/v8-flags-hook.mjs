// Loaded with `node --import` (NODE_OPTIONS) by the publish benchmark's BENCH_V8_FLAGS: sets V8
// flags that node refuses in NODE_OPTIONS (for example --no-parallel-scavenge), at start-up,
// before the service's code runs. The flags come from RTM_V8_FLAGS.
import { setFlagsFromString } from 'node:v8';

if (process.env.RTM_V8_FLAGS) setFlagsFromString(process.env.RTM_V8_FLAGS);
