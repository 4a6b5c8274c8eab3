// `BENCH_CPU_PROFILE=<dir>`: a V8 CPU profile of one measured section only (not the process's start or set-up),
// written as `<name>.cpuprofile` in that directory, for Chrome DevTools or any .cpuprofile reader.

import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const post = (session: inspector.Session, method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
  );

/** Runs `section`, profiled when BENCH_CPU_PROFILE names a directory. */
export async function profiled<T>(name: string, section: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return section();
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
  await post(session, 'Profiler.start');
  try {
    return await section();
  } finally {
    const { profile } = (await post(session, 'Profiler.stop')) as { profile: unknown };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
