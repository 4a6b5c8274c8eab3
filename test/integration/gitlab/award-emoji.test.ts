import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Awardable } from '../../../src/gitlab/award-emoji.js';
import { UnauthorizedError } from '../../../src/gitlab/errors.js';
import { example } from './support/examples.js';
import { expectRequest, type Harness, startHarness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.reset();
});

const issue: Awardable = { kind: 'issue', project: 'demo/web', iid: 80 };
const AWARDABLES: Array<[string, Awardable, string]> = [
  ['an issue', issue, '/projects/demo%2Fweb/issues/80'],
  ['a merge request', { kind: 'merge_request', project: 'demo/web', iid: 3 }, '/projects/demo%2Fweb/merge_requests/3'],
  ['a snippet', { kind: 'snippet', project: 42, iid: 5 }, '/projects/42/snippets/5'],
  ['a note of an issue', { ...issue, noteId: 1 }, '/projects/demo%2Fweb/issues/80/notes/1'],
  [
    'a note of a merge request',
    { kind: 'merge_request', project: 'demo/web', iid: 3, noteId: 9 },
    '/projects/demo%2Fweb/merge_requests/3/notes/9',
  ],
  ['a note of a snippet', { kind: 'snippet', project: 42, iid: 5, noteId: 2 }, '/projects/42/snippets/5/notes/2'],
];

describe.each(AWARDABLES)('award emoji on %s', (_name, awardable, owner) => {
  it('lists them', async () => {
    h.server.enqueue({ body: example('award_emoji/01-get-list-award-emoji') });
    const page = await h.client.awardEmoji.list(awardable, { page: 1, per_page: 100 });
    expectRequest(h.only(), { method: 'GET', path: `${owner}/award_emoji`, query: { page: '1', per_page: '100' } });
    expect(page.items.map((award) => award.name)).toEqual(['1234', 'microphone']);
  });

  it('gets one', async () => {
    h.server.enqueue({ body: example('award_emoji/02-get-single-award-emoji') });
    const award = await h.client.awardEmoji.get(awardable, 1);
    expectRequest(h.only(), { method: 'GET', path: `${owner}/award_emoji/1` });
    expect(award).toMatchObject({ id: 1, name: 'microphone', user: { username: 'user4' } });
  });

  it('awards one by name', async () => {
    h.server.enqueue({ status: 201, body: example('award_emoji/03-post-award-emoji') });
    const award = await h.client.awardEmoji.award(awardable, 'blowfish');
    expectRequest(h.only(), { method: 'POST', path: `${owner}/award_emoji`, form: { name: 'blowfish' } });
    expect(award.id).toBe(344);
  });

  it('removes one (204)', async () => {
    h.server.enqueue({ status: 204 });
    await expect(h.client.awardEmoji.remove(awardable, 344)).resolves.toBeUndefined();
    expectRequest(h.only(), { method: 'DELETE', path: `${owner}/award_emoji/344` });
  });
});

describe('award emoji on notes, with the note examples', () => {
  const note: Awardable = { ...issue, noteId: 1 };

  it('lists, gets and awards on a note', async () => {
    h.server.enqueue(
      { body: example('award_emoji/04-get-list-note-award-emoji') },
      { body: example('award_emoji/05-get-single-note-award-emoji') },
      { status: 201, body: example('award_emoji/06-post-award-emoji-on-note') },
    );
    const page = await h.client.awardEmoji.list(note);
    const one = await h.client.awardEmoji.get(note, 2);
    const awarded = await h.client.awardEmoji.award(note, 'rocket');
    expect(page.items[0]?.awardable_type).toBe('Note');
    expect(one.name).toBe('mood_bubble_lightning');
    expect(awarded).toMatchObject({ id: 345, name: 'rocket', awardable_id: 1 });
  });

  it('says only the owner or an admin may remove an award (401)', async () => {
    h.server.enqueue({ status: 401, body: { message: '401 Unauthorized' } });
    await expect(h.client.awardEmoji.remove(note, 2)).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
