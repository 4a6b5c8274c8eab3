import { describe, expect, it } from 'vitest';
import { type Loose, useSimulator, WEB } from './support.js';

const s = useSimulator();

/** The awardables of demo/web: an issue, a merge request and a snippet, each with a note. */
async function targets() {
  const events = await s.all(`/projects/${WEB}/events`, { query: { target_type: 'note' } });
  const noteOn = (type: string, pick: (e: Loose) => number | null) => {
    const e = events.find((x) => x.note.noteable_type === type);
    return { id: pick(e), note: e.note.id as number };
  };
  return [
    { kind: 'issues', ...noteOn('Issue', (e) => e.note.noteable_iid) },
    { kind: 'merge_requests', ...noteOn('MergeRequest', (e) => e.note.noteable_iid) },
    { kind: 'snippets', ...noteOn('Snippet', (e) => e.note.noteable_id) },
  ];
}

describe('award emoji on issues, merge requests and snippets, and on their notes', () => {
  it('lists, shows, awards (201), refuses duplicates (404) and removes (204) on every kind of awardable', async () => {
    for (const t of await targets()) {
      for (const base of [`/projects/${WEB}/${t.kind}/${t.id}`, `/projects/${WEB}/${t.kind}/${t.id}/notes/${t.note}`]) {
        const url = `${base}/award_emoji`;
        const list = await s.get(url, { as: 'eve' });
        expect(list.status, url).toBe(200);
        expect(list.headers.get('x-total')).toBe(String(list.data.length));
        const created = await s.post(url, { as: 'eve', form: { name: 'rocket' } });
        expect(created.status, url).toBe(201);
        expect(created.data).toMatchObject({
          name: 'rocket',
          user: { username: 'eve' },
          created_at: '2026-03-02T10:00:00.000Z',
        });
        expect(created.data.awardable_type).toBe(
          base.includes('/notes/')
            ? 'Note'
            : { issues: 'Issue', merge_requests: 'MergeRequest', snippets: 'Snippet' }[t.kind],
        );
        const shown = await s.get(`${url}/${created.data.id}`, { as: 'eve' });
        expect(shown.data).toEqual(created.data);
        const dup = await s.post(url, { as: 'eve', form: { name: 'rocket' } });
        expect(dup.status, url).toBe(404);
        expect(dup.data.message).toContain('has already been taken');
        expect((await s.del(`${url}/${created.data.id}`, { as: 'bob' })).status).toBe(401);
        expect((await s.del(`${url}/${created.data.id}`, { as: 'eve' })).status).toBe(204);
        expect((await s.get(`${url}/${created.data.id}`, { as: 'eve' })).status).toBe(404);
      }
    }
  });

  it('has seeded awards, including on notes of issues, merge requests and snippets', async () => {
    const [issue, , snippet] = await targets();
    expect((await s.get(`/projects/${WEB}/issues/${issue?.id}/award_emoji`)).data.length).toBeGreaterThan(0);
    expect((await s.get(`/projects/${WEB}/snippets/${snippet?.id}/award_emoji`)).data.length).toBeGreaterThan(0);
    const notes = await s.all(`/projects/${WEB}/events`, { query: { target_type: 'note' } });
    const awardedOn = new Set<string>();
    for (const e of notes) {
      const kind = { Issue: 'issues', MergeRequest: 'merge_requests', Snippet: 'snippets' }[
        e.note.noteable_type as string
      ];
      const parent = e.note.noteable_type === 'Snippet' ? e.note.noteable_id : e.note.noteable_iid;
      const awards = await s.get(`/projects/${WEB}/${kind}/${parent}/notes/${e.note.id}/award_emoji`);
      if (awards.data.length) awardedOn.add(e.note.noteable_type);
    }
    expect(awardedOn).toEqual(new Set(['Issue', 'MergeRequest', 'Snippet']));
  });

  it('lets an admin remove anyone’s award', async () => {
    const [issue] = await targets();
    const [award] = (await s.get(`/projects/${WEB}/issues/${issue?.id}/award_emoji`)).data;
    expect((await s.del(`/projects/${WEB}/issues/${issue?.id}/award_emoji/${award.id}`, { as: 'root' })).status).toBe(
      204,
    );
  });

  it('refuses unknown emoji and thumbs on one’s own issue (404), a missing name (400), unknown targets (404)', async () => {
    const unknown = await s.post(`/projects/${WEB}/issues/2/award_emoji`, { form: { name: ':thumbsup:' } });
    expect(unknown.status).toBe(404);
    const own = await s.post(`/projects/${WEB}/issues/2/award_emoji`, { as: 'alice', form: { name: 'thumbsup' } });
    expect(own.status).toBe(404);
    expect(
      (await s.post(`/projects/${WEB}/issues/2/award_emoji`, { as: 'bob', form: { name: 'thumbsup' } })).status,
    ).toBe(201);
    expect((await s.post(`/projects/${WEB}/issues/2/award_emoji`)).data).toEqual({ error: 'name is missing' });
    expect((await s.get(`/projects/${WEB}/issues/999/award_emoji`)).status).toBe(404);
    expect((await s.get(`/projects/${WEB}/snippets/999/award_emoji`)).status).toBe(404);
    expect((await s.get(`/projects/${WEB}/issues/2/notes/999999/award_emoji`)).status).toBe(404);
    expect((await s.get(`/projects/${WEB}/issues/2/award_emoji/999999`)).status).toBe(404);
  });
});
