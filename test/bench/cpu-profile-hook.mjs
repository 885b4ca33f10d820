// Loaded with `node --import` (NODE_OPTIONS) by the benchmarks' profiling options: profiles the
// whole life of the process and writes `<dir>/<pid>.cpuprofile` when it exits (node refuses
// --cpu-prof in NODE_OPTIONS). The directory comes from RTM_CPU_PROFILE_DIR.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const dir = process.env.RTM_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // an in-process session answers synchronously, so the file is written before the exit
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(`${dir}/${process.pid}.cpuprofile`, JSON.stringify(result.profile));
    });
  });
}
