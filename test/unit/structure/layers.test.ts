import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { arrowsUp, circlesOf, importsOf, layerOf, readLayers, sourcesUnder } from './import-graph.js';

// The layers are the README's picture (its "Layers" section), read from the README itself so the picture and this
// check cannot drift apart. A file may import its own layer and the layers below it, never one above, and no files
// import each other in a circle, type imports included. The bot never imports the simulator, which only the demo
// and the benches use, through its door (src/sim/index.ts).

const repo = path.resolve(import.meta.dirname, '../../..');

describe('the layers', () => {
  const layers = readLayers(fs.readFileSync(path.join(repo, 'README.md'), 'utf8'));
  const files = [...sourcesUnder(repo, 'src'), ...sourcesUnder(repo, 'bench')];
  const imports = files.flatMap((f) => importsOf(f, fs.readFileSync(path.join(repo, f), 'utf8')));

  it('are drawn in the README, each place standing once', () => {
    const places = layers.flatMap((l) => l.places);
    expect(layers.length).toBeGreaterThan(5);
    expect(places.filter((p, i) => places.indexOf(p) !== i)).toEqual([]);
    expect(places.filter((p) => !fs.existsSync(path.join(repo, p)))).toEqual([]);
  });

  it('give every file of src/ and bench/ a place (a new folder or top-level file gets its line in the README)', () => {
    expect(files.filter((f) => layerOf(layers, f) === undefined)).toEqual([]);
  });

  it('hold: no import, type or value, runs from a lower layer into a higher one', () => {
    expect(arrowsUp(layers, imports)).toEqual([]);
  });

  it('hold: no files import each other in a circle', () => {
    expect(circlesOf(imports)).toEqual([]);
  });

  it('let the benches reach the bot only through its doors, and nothing of the tests', () => {
    const doors = ['src/index.ts', 'src/console/index.ts', 'src/sim/index.ts'];
    const bad = imports.filter(
      (i) =>
        i.from.startsWith('bench/') &&
        !i.to.startsWith('bench/') &&
        !doors.includes(i.to) &&
        !i.to.startsWith('scripts/'),
    );
    expect(bad).toEqual([]);
  });

  it('keep the simulator apart: the bot never imports it, the demo and the benches only through its door', () => {
    const bad = imports.filter(
      (i) =>
        (i.to.startsWith('src/sim/') && !i.from.startsWith('src/sim/') && i.to !== 'src/sim/index.ts') ||
        (i.to.startsWith('src/sim/') && !/^(src\/sim\/|src\/console\/|bench\/)/.test(i.from)) ||
        (i.from.startsWith('src/sim/') && !i.to.startsWith('src/sim/')),
    );
    expect(bad).toEqual([]);
  });
});

describe('the layer check itself', () => {
  const readme = [
    '# x',
    '## Layers',
    '',
    '```text',
    'src/top.ts   the top',
    'src/mid/  src/side.ts   the middle',
    'src/',
    '```',
    '## Next',
  ].join('\n');
  const layers = readLayers(readme);

  it('reads the places of each line of the picture, and what the line says', () => {
    expect(layers).toEqual([
      { places: ['src/top.ts'], says: 'the top' },
      { places: ['src/mid/', 'src/side.ts'], says: 'the middle' },
      { places: ['src/'], says: '' },
    ]);
    expect(layerOf(layers, 'src/mid/a/b.ts')).toBe(1);
    expect(layerOf(layers, 'src/other.ts')).toBe(2);
    expect(layerOf(layers, 'bench/x.ts')).toBeUndefined();
  });

  it('finds an import into a higher layer, a type import and a dynamic one included', () => {
    const text = [
      "import type { A } from '../top.js';",
      "export { B } from './b.js';",
      "const c = await import('../side.js');",
      "type D = import('../top.js').D;",
    ].join('\n');
    const imports = importsOf('src/mid/x.ts', text);
    expect(imports.map((i) => i.to)).toEqual(['src/top.ts', 'src/mid/b.ts', 'src/side.ts', 'src/top.ts']);
    expect(arrowsUp(layers, imports)).toEqual([
      'src/mid/x.ts:1 -> src/top.ts (the middle imports the top)',
      'src/mid/x.ts:4 -> src/top.ts (the middle imports the top)',
    ]);
  });

  it('finds a circle through a type import, and none in a chain', () => {
    const chain = [
      { from: 'a', to: 'b', line: 1 },
      { from: 'b', to: 'c', line: 1 },
    ];
    expect(circlesOf(chain)).toEqual([]);
    expect(circlesOf([...chain, { from: 'c', to: 'a', line: 1 }])).toEqual([['a', 'b', 'c']]);
    const typeOnly = importsOf('src/c.ts', "import type { A } from './a.js';");
    expect(circlesOf([...chain, ...typeOnly.map((i) => ({ ...i, from: 'c', to: 'a' }))])).toEqual([['a', 'b', 'c']]);
  });
});
