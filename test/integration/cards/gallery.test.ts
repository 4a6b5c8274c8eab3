import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock, TEST_START } from '../../support/clock.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';
import { example, examplesDir } from '../gitlab/support/examples.js';
import { KINDS, type KindName } from './gallery-fields.js';

// One card and row of every kind, drawn from the simulator's demo data and from every real 9.5 answer, each
// checked for the fields a person looks for on it (gallery-fields.ts): a card that loses one fails here.

type Drawn = { view: string; text: string; fields: string[]; patterns?: RegExp[] };

function draw(kindName: KindName, item: unknown): Drawn[] {
  const k = KINDS[kindName];
  const parsed = k.schema.safeParse(item);
  if (!parsed.success) return [];
  return (k.views as (x: unknown) => Drawn[])(parsed.data);
}

function expectFields(where: string, drawn: Drawn[]): void {
  for (const d of drawn) {
    for (const field of d.fields) {
      expect(d.text, `${where}, ${d.view}: “${field}”`).toContain(field);
    }
    for (const p of d.patterns ?? []) expect(d.text, `${where}, ${d.view}: ${p}`).toMatch(p);
    // No emoji name reaches Slack as a shortcode it would show as text.
    expect(d.text, `${where}, ${d.view}`).not.toMatch(/:mood_bubble_lightning:/);
  }
}

const itemsOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

/** Which kinds the answers of an example folder may be, when they are things a card shows. */
const FOLDERS: Record<string, KindName[]> = {
  issues: ['issue', 'todo'],
  merge_requests: ['merge_request', 'todo'],
  jobs: ['job'],
  pipelines: ['pipeline', 'pipeline_row'],
  pipeline_schedules: ['schedule'],
  deployments: ['deployment'],
  todos: ['todo'],
  events: ['event'],
  keys: ['key'],
  award_emoji: ['award'],
};

describe('every real 9.5 example', () => {
  const drawnOf = new Map<KindName, number>();
  for (const [folder, kinds] of Object.entries(FOLDERS)) {
    for (const file of readdirSync(path.join(examplesDir, folder)).filter((f) => f.endsWith('.json'))) {
      const name = `${folder}/${file.replace(/\.json$/, '')}`;
      const items = itemsOf(example(name));
      for (const kindName of kinds) {
        const drawn = items.flatMap((item) => draw(kindName, item));
        if (drawn.length === 0) continue;
        drawnOf.set(kindName, (drawnOf.get(kindName) ?? 0) + 1);
        it(`${name} draws its ${kindName} with the fields people look for`, () => {
          expectFields(name, drawn);
        });
      }
    }
  }

  it('covers every kind of card', () => {
    expect([...drawnOf.keys()].sort()).toEqual(Object.keys(KINDS).sort());
  });
});

describe("the simulator's demo data", () => {
  let sim: RunningSimulator;
  const get = async (token: string, p: string): Promise<unknown> => {
    const res = await fetch(`${sim.url}/api/v4/${p}`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(res.status, p).toBe(200);
    return res.json();
  };
  beforeAll(async () => {
    sim = await startSim(fakeClock(TEST_START));
  });
  afterAll(() => sim.close());

  const WEB = 'projects/demo%2Fweb';
  const sources: [KindName, string, string][] = [
    ['issue', TOKENS.alice, `${WEB}/issues?per_page=100&state=all`],
    ['merge_request', TOKENS.alice, `${WEB}/merge_requests?per_page=100&state=all`],
    ['job', TOKENS.alice, `${WEB}/jobs?per_page=100`],
    ['pipeline', TOKENS.alice, `${WEB}/pipelines/1`],
    ['pipeline', TOKENS.alice, `${WEB}/pipelines/2`],
    ['pipeline_row', TOKENS.alice, `${WEB}/pipelines?per_page=100`],
    ['schedule', TOKENS.alice, `${WEB}/pipeline_schedules/1`],
    ['schedule', TOKENS.alice, `${WEB}/pipeline_schedules/2`],
    ['deployment', TOKENS.alice, `${WEB}/deployments?per_page=100`],
    ['todo', TOKENS.alice, 'todos?per_page=100'],
    ['event', TOKENS.alice, `${WEB}/events?per_page=100`],
    ['key', TOKENS.root, 'keys/1'],
    ['award', TOKENS.alice, `${WEB}/issues/4/award_emoji`],
  ];
  for (const [kindName, token, p] of sources) {
    it(`${p} draws every ${kindName} with the fields people look for`, async () => {
      const items = itemsOf(await get(token, p));
      const drawn = items.flatMap((item) => draw(kindName, item));
      expect(drawn.length, `${p}: nothing parsed as ${kindName}`).toBeGreaterThan(0);
      expectFields(p, drawn);
    });
  }
});
