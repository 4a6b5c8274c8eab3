import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The import graph of the repository's sources as the structure tests read it: the layers the README draws, every
// relative import of a file (type imports included), and the circles among them.

export interface Layer {
  /** Folders (ending in `/`) and files, from the repository's root. */
  places: string[];
  says: string;
}

/** The layers as the README draws them, top first: each line of the fenced block under `## Layers`. */
export function readLayers(readme: string): Layer[] {
  const section = readme.split(/^## Layers\s*$/m)[1];
  const block = section?.match(/```text\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('README.md has no "## Layers" section with a ```text picture');
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const words = line.trim().split(/\s+/);
      const places = [];
      while (words.length > 0 && /^(src|bench)\//.test(words[0] as string)) places.push(words.shift() as string);
      return { places, says: words.join(' ') };
    });
}

/** The layer of a file: the line whose place is the longest that holds it. */
export function layerOf(layers: readonly Layer[], file: string): number | undefined {
  let best: { index: number; length: number } | undefined;
  layers.forEach((layer, index) => {
    for (const place of layer.places) {
      const holds = place.endsWith('/') ? file.startsWith(place) : file === place;
      if (holds && (!best || place.length > best.length)) best = { index, length: place.length };
    }
  });
  return best?.index;
}

export interface Import {
  from: string;
  to: string;
  line: number;
}

const SOURCE = /\.(ts|mts|mjs)$/;

/** Every relative import of a file: static, `import type`, `export … from`, `import()` and `import('…')` types. */
export function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (node: ts.Node, spec: string) => {
    if (!spec.startsWith('.')) return;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts');
    found.push({ from: file, to: target, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      add(node, node.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const ref = node.moduleReference.expression;
      if (ts.isStringLiteral(ref)) add(node, ref.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(node, arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) add(node, literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Files that import each other in a loop (strongly connected components of more than one file, or a self-import). */
export function circlesOf(imports: readonly Import[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)?.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || next.get(file)?.has(file)) circles.push(component.sort());
    }
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return circles;
}

/** Every source file under `top` (a folder of the repository), as a path from the root. */
export function sourcesUnder(repo: string, top: string): string[] {
  return fs
    .readdirSync(path.join(repo, top), { recursive: true })
    .map(String)
    .filter((f) => SOURCE.test(f))
    .map((f) => `${top}/${f.split(path.sep).join('/')}`)
    .sort();
}

/** Imports that run from a lower layer into a higher one, as `from:line -> to (layer names)`. */
export function arrowsUp(layers: readonly Layer[], imports: readonly Import[]): string[] {
  const up: string[] = [];
  for (const i of imports) {
    const from = layerOf(layers, i.from);
    const to = layerOf(layers, i.to);
    if (from !== undefined && to !== undefined && to < from)
      up.push(`${i.from}:${i.line} -> ${i.to} (${layers[from]?.says} imports ${layers[to]?.says})`);
  }
  return up;
}
