import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// More than four positional parameters read badly at the call site and let two values of one type swap silently:
// such a function takes a named options object instead (or a leading subject and one). The only shapes allowed
// longer are those a protocol dictates, listed here by name.

const MAX_POSITIONAL = 4;

/** Parameter lists allowed past the limit, by the directory they live in and their names in order. */
const ALLOWED = [
  {
    // ListRenderer in nouns/types.ts: the handler protocol (command, ctx, platform, ops) plus the page it draws.
    under: 'nouns/',
    names: ['command', 'ctx', 'platform', 'ops', 'place', 'notice'],
  },
];

interface LongList {
  where: string;
  name: string;
  params: string[];
}

const isFunction = (node: ts.Node): node is ts.SignatureDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isMethodSignature(node) ||
  ts.isFunctionTypeNode(node) ||
  ts.isCallSignatureDeclaration(node);

const nameOf = (node: ts.SignatureDeclaration): string => {
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText();
  return '(anonymous)';
};

/** Every function, method or function type in `text` with more than MAX_POSITIONAL parameters. */
function findLongParameterLists(file: string, text: string): LongList[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongList[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.parameters.length > MAX_POSITIONAL) {
      const params = node.parameters.map((p) => p.name.getText());
      const allowed = ALLOWED.some(
        (shape) => file.startsWith(shape.under) && shape.names.join(',') === params.join(','),
      );
      if (!allowed) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ where: `${file}:${line}`, name: nameOf(node), params });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('parameter lists', () => {
  const root = path.resolve(import.meta.dirname, '../../../src');
  const sources = fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split(path.sep).join('/'));

  it('takes at most four positional parameters anywhere in src (named options beyond that)', () => {
    const long = sources.flatMap((f) => findLongParameterLists(f, fs.readFileSync(path.join(root, f), 'utf8')));
    expect(long).toEqual([]);
  });

  it('finds a long list in a function, a method, an arrow, a constructor and a function type', () => {
    const text = [
      'function a(v: number, w: number, x: number, y: number, z: number) {}',
      'const b = (v, w, x, y, z) => 0;',
      'class C { constructor(v, w, x, y, z) {} m(v, w, x, y, z) {} }',
      'interface D { e(v: string, w: string, x: string, y: string, z: string): void; f: (v, w, x, y, z) => void }',
      'function fine(v: number, w: number, x: number, y: number) {}',
    ].join('\n');
    expect(findLongParameterLists('views/x.ts', text).map((l) => l.name)).toEqual([
      'a',
      'b',
      'constructor',
      'm',
      'e',
      '(anonymous)',
    ]);
  });

  it('allows the nouns list-renderer protocol only in nouns/ and only with its own names', () => {
    const renderer = "const lists = { async 'mr.list'(command, ctx, platform, ops, place, notice) {} };";
    expect(findLongParameterLists('nouns/x.ts', renderer)).toEqual([]);
    expect(findLongParameterLists('views/x.ts', renderer)).toHaveLength(1);
    expect(
      findLongParameterLists('nouns/x.ts', 'function f(command, ctx, platform, ops, place, extra) {}'),
    ).toHaveLength(1);
  });
});
