// Preloaded into each server process of the side-by-side bench (the bot, the bare Bolt app, the floor, the
// simulator), so that nothing in src/ carries a seam for it. It tells the bench the process's own CPU time, its
// memory, the bytes its JavaScript heap allocated so far, the heap after a forced GC, and (with
// BENCH_PROBE_TIMINGS=1) when each HTTP request it served started and finished on the machine's monotonic clock,
// the clock the load generator stamps its commands with.
//
// Two ways in. `node --import ./bench/probe.mjs …` with an IPC channel (the simulator): it answers the channel.
// Through NODE_OPTIONS=--import=…/probe.mjs with BENCH_PROBE_MAIN set (the bot under `npm start`, which runs npm,
// a shell, the build and then node: only the process whose main script ends with BENCH_PROBE_MAIN takes part): it
// listens on a loopback port of its own, says `bench-probe listening on PORT` on stderr, and answers
// GET /__probe/stats[?gc=1] and GET /__probe/timings there. It adds no node flag: the forced GC is reached through
// V8's flag at run time, and bytes are counted with v8.GCProfiler (what each collection freed, plus what is in use).
// BENCH_PROBE_HEAP_PROFILE (below) profiles where those bytes are allocated; BENCH_PROBE_CPU_PROFILE where the CPU
// time goes (Node 20 refuses `--cpu-prof` in NODE_OPTIONS, so the probe starts the same profiler itself).

import { subscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';

const main = process.env.BENCH_PROBE_MAIN;
const served = main ? process.argv[1]?.endsWith(main) === true : typeof process.send === 'function';
if (!main && !served) throw new Error('bench/probe.mjs needs an IPC channel (spawn with "ipc") or BENCH_PROBE_MAIN');
if (served) start();

function start() {
  const dir = process.env.BENCH_PROBE_HEAP_PROFILE;
  if (dir) profileAllocations(path.join(dir, `${path.basename(process.argv[1] ?? 'node')}.${process.pid}.heapprofile`));
  const cpuDir = process.env.BENCH_PROBE_CPU_PROFILE;
  if (cpuDir) profileCpu(path.join(cpuDir, `${path.basename(process.argv[1] ?? 'node')}.${process.pid}.cpuprofile`));
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

  // Bytes allocated = what is in use now + what every collection since the start freed.
  const stages = process.env.BENCH_PROBE_STAGES === '1' ? markStages() : null;

  let freed = 0;
  let profiler = new v8.GCProfiler();
  profiler.start();
  const allocatedBytes = () => {
    const { statistics } = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    for (const s of statistics) freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    return freed + v8.getHeapStatistics().used_heap_size;
  };

  const gc = globalThis.gc;
  // A full collection shrinks the young generation only when V8 sees a low allocation rate over the last five
  // seconds or so; right after a burst it does not, and a process read then kept its 32 MiB young generation or not by
  // chance. So: collect, stay idle past that window, collect again; every app's young generation is shrunk alike.
  // (Node 20's `gc({ type: 'major', execution: 'sync' })` does not collect synchronously: plain `gc()` it is.)
  const collect = async () => {
    // The bench starts every probed process with --expose-gc (a flag of the command line or NODE_OPTIONS, never set
    // from code): it only makes gc() callable, the collector itself is unchanged.
    if (typeof gc !== 'function') throw new Error('bench/probe.mjs: start the process with --expose-gc');
    gc();
    gc();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    gc();
  };

  // V8 hands the pages a collection freed back to the system from a thread of its own: read right after it, the
  // resident set still holds some of them (up to 17 MiB measured), more after a larger heap.
  async function settledRss() {
    let last = process.memoryUsage.rss();
    for (let waited = 0; waited < 2000; waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const now = process.memoryUsage.rss();
      if (now === last) break;
      last = now;
    }
  }

  async function stats(o) {
    if (o.gc) {
      await collect();
      await settledRss();
    }
    const cpu = process.cpuUsage();
    const out = { cpuUs: cpu.user + cpu.system, memory: process.memoryUsage(), allocatedBytes: allocatedBytes() };
    if (o.gc) {
      out.heapAfterGc = out.memory.heapUsed;
      out.rssAfterGc = out.memory.rss;
    }
    return out;
  }

  function drainTimings() {
    const out = { start: timings.start, end: timings.end, ...(stages ? { stages: stages.drain() } : {}) };
    timings.start = [];
    timings.end = [];
    return out;
  }

  const answer = (op, o) => (op === 'stats' ? stats(o) : op === 'timings' ? drainTimings() : null);

  if (main) {
    const server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://probe');
      const result = await answer(url.pathname.replace('/__probe/', ''), { gc: url.searchParams.get('gc') === '1' });
      res.writeHead(result === null ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result));
    });
    server.listen(0, '127.0.0.1', () => {
      process.stderr.write(`bench-probe listening on ${server.address().port}\n`);
      server.unref();
    });
    return;
  }

  process.on('message', async (msg) => {
    if (!msg || typeof msg !== 'object' || msg.probe === undefined) return;
    try {
      const result = await answer(msg.op, msg);
      if (result === null) throw new Error(`unknown probe op ${msg.op}`);
      process.send({ probe: msg.probe, ok: true, result });
    } catch (err) {
      process.send({ probe: msg.probe, ok: false, error: String(err?.message ?? err) });
    }
  });
  // The bench going away must not leave a server running.
  process.on('disconnect', () => process.exit(0));
  process.channel?.unref();
}

/**
 * BENCH_PROBE_STAGES=1: when each step of a command happened on the monotonic clock, the same way in every app, so
 * the bench can say where one app spends more than another between a command arriving and its answer: a request
 * read in full (`read`), an outgoing request made (`call`, or `answer` for a response_url), an outgoing request's
 * answer read in full (`called`, `answered`). Outgoing requests are seen where an http.Agent takes them: Node 20's
 * `http.client.request.start` is published only once the request is written, after any socket wait.
 */
function markStages() {
  const marks = { read: [], call: [], called: [], answer: [], answered: [] };
  const now = () => Number(process.hrtime.bigint());
  const toSlack = (path) => typeof path === 'string' && path.startsWith('/response/');
  subscribe('http.server.request.start', ({ request }) => {
    if (!request.url?.startsWith('/__')) request.once('end', () => marks.read.push(now()));
  });
  subscribe('http.client.response.finish', ({ request, response }) => {
    const done = toSlack(request.path) ? marks.answered : marks.called;
    response.once('end', () => done.push(now()));
  });
  const addRequest = http.Agent.prototype.addRequest;
  http.Agent.prototype.addRequest = function (req, ...rest) {
    (toSlack(req.path) ? marks.answer : marks.call).push(now());
    return addRequest.call(this, req, ...rest);
  };
  return {
    drain() {
      const out = { ...marks };
      for (const k of Object.keys(marks)) marks[k] = [];
      return out;
    },
  };
}

/**
 * BENCH_PROBE_HEAP_PROFILE=dir: samples every allocation, kept or collected (node's --heap-prof keeps only what
 * survives), and writes <script>.<pid>.heapprofile (DevTools' format) there on exit.
 */
function profileAllocations(file) {
  const session = new inspector.Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (!err) fs.writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}

/**
 * BENCH_PROBE_CPU_PROFILE=dir: what `--cpu-prof` does (a sample every `BENCH_PROBE_CPU_INTERVAL_US`, 1000 µs by
 * default), started from inside, and writes <script>.<pid>.cpuprofile there on exit.
 */
function profileCpu(file) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROBE_CPU_INTERVAL_US ?? 1000) });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) fs.writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
