// Where a .cpuprofile's time went: self time summed by function and by file (or package), the top of each printed
// as a table, and (with --json) the same as JSON. Reads what `--cpu-prof` or the bench's probe
// (BENCH_PROBE_CPU_PROFILE=dir) writes.
//
//   npx tsx bench/cpu-profile.ts /tmp/prof/main.js.1234.cpuprofile [--top 40] [--json] [--under src/listeners]
//
// --under keeps only samples whose stack passes through a file whose path contains that text (inclusive time of
// that part of the code, self time split as usual).

import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const top = Number(option('--top') ?? 40);
const under = option('--under');
if (!file) {
  process.stderr.write('usage: npx tsx bench/cpu-profile.ts FILE.cpuprofile [--top N] [--json] [--under TEXT]\n');
  process.exit(2);
}

const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** A file's short name: a package for what is under node_modules, the path from the repo otherwise. */
function where(url: string): string {
  if (url === '') return '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(src|dist|bench)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
}

const passesUnder = new Map<number, boolean>();
function isUnder(id: number): boolean {
  const known = passesUnder.get(id);
  if (known !== undefined) return known;
  const n = byId.get(id);
  const p = parent.get(id);
  const result = !!n && (n.callFrame.url.includes(under ?? '') || (p !== undefined && isUnder(p)));
  passesUnder.set(id, result);
  return result;
}

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
let kept = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i] as number;
  const us = profile.timeDeltas[i + 1] ?? 0; // a sample's time is the gap to the next one
  total += us;
  const n = byId.get(id);
  if (!n) continue;
  if (n.callFrame.functionName === '(idle)') continue;
  if (under !== undefined && !isUnder(id)) continue;
  kept += us;
  const f = where(n.callFrame.url);
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${f}:${n.callFrame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  byFile.set(f, (byFile.get(f) ?? 0) + us);
}

const rank = (m: Map<string, number>) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: Math.round(us) / 1000, share: Math.round((us / kept) * 1000) / 10 }));

const result = {
  file,
  wall_ms: Math.round((profile.endTime - profile.startTime) / 1000),
  busy_ms: Math.round(kept / 1000),
  ...(under !== undefined ? { under } : {}),
  by_file: rank(byFile),
  by_function: rank(byFunction),
};
if (args.includes('--json')) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const table = (title: string, rows: { name: string; ms: number; share: number }[]) =>
    `${title}\n${rows.map((r) => `${r.ms.toFixed(1).padStart(10)} ms ${r.share.toFixed(1).padStart(5)} %  ${r.name}`).join('\n')}\n`;
  process.stdout.write(
    `${file}: ${result.busy_ms} ms busy of ${result.wall_ms} ms (total sampled ${Math.round(total / 1000)} ms)\n\n` +
      `${table('self time by file', result.by_file)}\n${table('self time by function', result.by_function)}`,
  );
}
