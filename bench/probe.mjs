// Loaded with `node --import ./bench/probe.mjs` into each server process of the side-by-side bench (the bot, the
// bare Bolt app, the simulator), so that nothing in src/ carries a seam for it. It answers the bench over the IPC
// channel the bench opened: the process's own CPU time and memory (with the heap measured after a forced GC when
// node runs with --expose-gc) and, when BENCH_PROBE_TIMINGS=1, when each HTTP request it served started and
// finished on the machine's monotonic clock, the same clock the load generator stamps its commands with.

import { subscribe } from 'node:diagnostics_channel';

if (typeof process.send !== 'function') throw new Error('bench/probe.mjs needs an IPC channel (spawn with "ipc")');

const timings = { start: [], end: [] };
if (process.env.BENCH_PROBE_TIMINGS === '1') {
  const started = new WeakMap();
  subscribe('http.server.request.start', ({ request }) => {
    if (!request.url?.startsWith('/__')) started.set(request, process.hrtime.bigint());
  });
  subscribe('http.server.response.finish', ({ request }) => {
    const start = started.get(request);
    if (start === undefined) return;
    started.delete(request);
    timings.start.push(Number(start));
    timings.end.push(Number(process.hrtime.bigint()));
  });
}

function stats(o) {
  const cpu = process.cpuUsage();
  const out = { cpuUs: cpu.user + cpu.system, memory: process.memoryUsage() };
  if (o.gc) {
    if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc to measure the heap after GC');
    globalThis.gc();
    globalThis.gc();
    out.heapAfterGc = process.memoryUsage().heapUsed;
    out.rssAfterGc = process.memoryUsage().rss;
  }
  return out;
}

function drainTimings() {
  const out = { start: timings.start, end: timings.end };
  timings.start = [];
  timings.end = [];
  return out;
}

process.on('message', (msg) => {
  if (!msg || typeof msg !== 'object' || msg.probe === undefined) return;
  try {
    const result = msg.op === 'stats' ? stats(msg) : msg.op === 'timings' ? drainTimings() : null;
    if (result === null) throw new Error(`unknown probe op ${msg.op}`);
    process.send({ probe: msg.probe, ok: true, result });
  } catch (err) {
    process.send({ probe: msg.probe, ok: false, error: String(err?.message ?? err) });
  }
});
// The bench going away must not leave a server running.
process.on('disconnect', () => process.exit(0));
process.channel?.unref();
