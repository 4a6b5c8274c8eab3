import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPEC } from '../../../src/grammar/index.js';
import type { ButtonDef } from '../../../src/ids.js';
import { findRegistrationGaps } from '../../../src/nouns/assemble.js';
import { NOUNS } from '../../../src/nouns/index.js';
import { type Noun, noun } from '../../../src/nouns/types.js';

// A noun is one registration; these checks keep the registrations whole. They read the command
// table and every button definition from their sources, so a missing handler cannot hide.

const modulesOf = (dir: string): Promise<Record<string, unknown>[]> => {
  const abs = path.resolve(import.meta.dirname, '../../../src', dir);
  return Promise.all(
    fs
      .readdirSync(abs)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => import(pathToFileURL(path.join(abs, f)).href)),
  );
};
const buttonModules = await modulesOf('buttons');
const modalModules = await modulesOf('modals');

/** Every ButtonDef (or ModalDef: the same shape) the modules define, whether a noun registers it or not. */
function definedButtons(modules = buttonModules): ButtonDef[] {
  const out: ButtonDef[] = [];
  for (const mod of modules) {
    for (const group of Object.values(mod)) {
      if (!group || typeof group !== 'object') continue;
      for (const def of Object.values(group as Record<string, unknown>)) {
        const d = def as Partial<ButtonDef>;
        if (typeof d?.name === 'string' && d.schema && typeof d.schema === 'object') out.push(d as ButtonDef);
      }
    }
  }
  return out;
}

describe('the registered nouns', () => {
  it('fit together: no command or button twice, no noun shipped in part, nothing outside the table', () => {
    expect(findRegistrationGaps(NOUNS, SPEC)).toEqual([]);
  });

  it('give every button defined in src/buttons a handler', () => {
    const defined = definedButtons().map((d) => d.name);
    expect(defined.length).toBeGreaterThan(10);
    const registered = new Set(NOUNS.flatMap((n) => n.buttonDefs.map((d) => d.name)));
    expect(defined.filter((name) => !registered.has(name))).toEqual([]);
  });

  it('give every modal defined in src/modals a handler', () => {
    const defined = definedButtons(modalModules).map((d) => d.name);
    expect(defined).toContain('issue.create');
    const registered = new Set(NOUNS.flatMap((n) => n.modalDefs.map((d) => d.name)));
    expect(defined.filter((name) => !registered.has(name))).toEqual([]);
  });

  it('give every list renderer a command of the table with paging flags', () => {
    for (const key of NOUNS.flatMap((n) => n.listKeys)) {
      const entry = SPEC.find((e) => e.key === key);
      expect(entry?.flags.map((f) => f.name)).toEqual(expect.arrayContaining(['page', 'perPage']));
    }
  });
});

describe('the completeness check itself', () => {
  const keysOf = (n: Noun) => n.commandKeys;
  const withoutKey = (n: Noun, key: string): Noun => ({ ...n, commandKeys: keysOf(n).filter((k) => k !== key) });

  it('fails when a whole noun is left out of the list', () => {
    const withoutKeys = NOUNS.filter((n) => n.name !== 'key');
    expect(findRegistrationGaps(withoutKeys, SPEC)).toEqual(['command key.show has no handler']);
  });

  it('fails when one command of a shipped noun loses its handler', () => {
    const jobs = NOUNS.find((n) => n.name === 'job') as Noun;
    const broken = NOUNS.map((n) => (n === jobs ? withoutKey(n, 'job.erase') : n));
    expect(findRegistrationGaps(broken, SPEC)).toEqual(['command job.erase has no handler']);
  });

  it('fails when two nouns register the same command or button', () => {
    const jobs = NOUNS.find((n) => n.name === 'job') as Noun;
    const copy: Noun = { ...jobs, name: 'job-again' };
    const problems = findRegistrationGaps([...NOUNS, copy], SPEC);
    expect(problems).toContain('command job.retry is registered by both job and job-again');
    expect(problems).toContain('button job.retry is registered by both job and job-again');
  });

  it('fails when two nouns answer the same Slack event, or both draw the Home tab', () => {
    const home = NOUNS.find((n) => n.name === 'home') as Noun;
    const links = NOUNS.find((n) => n.name === 'unfurl') as Noun;
    expect(home.eventTypes).toEqual(['app_home_opened']);
    expect(links.eventTypes).toEqual(['link_shared']);
    const problems = findRegistrationGaps([...NOUNS, { ...home, name: 'home-again' }], SPEC);
    expect(problems).toContain('event app_home_opened is answered by both home and home-again');
    expect(problems).toContain('the Home tab is drawn by home and home-again');
  });

  it('fails when a noun registers a command the table does not have', () => {
    const extra = noun('extra', () => ({})).define({
      commands: { ['job.explode' as 'job.show']: async () => ({ kind: 'none' }) },
    });
    expect(findRegistrationGaps([...NOUNS, extra], SPEC)).toEqual([
      'command job.explode is registered but not in the command table',
    ]);
  });
});

describe('module boundaries', () => {
  const root = path.resolve(import.meta.dirname, '../../../src');
  const importsOf = (dir: string) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const text = fs.readFileSync(path.join(root, dir, f), 'utf8');
        return [...text.matchAll(/from '([^']+)'/g)].map((m) => ({ file: `${dir}/${f}`, spec: m[1] as string }));
      });

  it('keeps views pure: no view imports a noun, a listener or Bolt (they name what operations return, nothing more)', () => {
    const bad = importsOf('views').filter(({ spec }) => /(^|\/)(nouns|slack)\/|^@slack\/bolt$/.test(spec));
    expect(bad).toEqual([]);
  });

  it('keeps the client apart: gitlab/ imports no store, view, noun or Slack package', () => {
    const bad = importsOf('gitlab').filter(({ spec }) => /(^|\/)(store|views|nouns|slack)\/|^@slack\//.test(spec));
    expect(bad).toEqual([]);
  });

  it('lets views and operations name scheduled work only through the services operations/ declares', () => {
    const bad = ['views', 'operations']
      .flatMap(importsOf)
      .filter(({ spec }) => /(^|\/)(digest|alerts|watch|follow|steps|delivery)\//.test(spec));
    expect(bad).toEqual([]);
  });

  it('lets the digest tower reach the server only through operations/ (one access, one judgement of 401s)', () => {
    const built = fs
      .readdirSync(path.join(root, 'digest'))
      .filter((f) => /createGitlabAccess|createSession\(/.test(fs.readFileSync(path.join(root, 'digest', f), 'utf8')));
    expect(built).toEqual([]);
  });

  const importsOfFile = (file: string) =>
    [...fs.readFileSync(path.join(root, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => ({
      file,
      spec: m[1] as string,
    }));

  it('keeps the shared modules at the bottom: errors.ts, ids.ts and connection.ts import no layer above them', () => {
    const bad = ['errors.ts', 'ids.ts', 'connection.ts']
      .flatMap(importsOfFile)
      .filter(({ spec }) => /(^|\/)(views|operations|nouns|slack|digest|buttons|modals)\//.test(spec));
    expect(bad).toEqual([]);
  });

  it('keeps the store a store: views, nouns and slack/ import only its types (its judgements live elsewhere)', () => {
    const valueImports = (dir: string) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.ts'))
        .flatMap((f) => {
          const text = fs.readFileSync(path.join(root, dir, f), 'utf8');
          return [...text.matchAll(/import (?!type )([^;]*?) from '([^']*\/store\/[^']+)'/g)]
            .filter((m) => (m[1] as string).replace(/type \w+,?/g, '').replace(/[{},\s]/g, '') !== '')
            .map((m) => `${dir}/${f}: ${m[1]} from ${m[2]}`);
        });
    expect(['views', 'nouns', 'slack'].flatMap(valueImports)).toEqual([]);
  });

  it('lets only slack/ and app.ts import Bolt', () => {
    const dirs = ['views', 'nouns', 'operations', 'gitlab', 'grammar', 'store', 'buttons', 'modals'];
    const bad = dirs.flatMap(importsOf).filter(({ spec }) => spec === '@slack/bolt');
    expect(bad).toEqual([]);
  });
});
