import { describe, expect, it } from 'vitest';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, useCiBot, WEB } from './harness.js';

// Cards are drawn once and clicked later, often by someone else: when the resource moved on in
// between, a click says what is true now and redraws the card as it is, instead of a wrong refusal
// or a claim that the clicker did something they did not.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);

describe('a card that is out of date', () => {
  it('says a job was already retried, by whom, and redraws the card in place', async () => {
    const shared = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    const own = await h.ask('bob', 'job demo/web 8', /Job #8 /);
    const retried = await h.press('bob', buttonOf(own, /^Retry$/), /Retried by/);
    const newId = Number(/new job #(\d+) replaces #8/.exec(retried.text)?.[1]);
    const from = h.calls().length;

    const stale = await h.press('alice', buttonOf(shared, /^Retry$/), /Already retried/);
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/jobs/8/retry`, 'alice', { status: 403 }),
      call('GET', `${WEB}/jobs/8`, 'alice'),
      call('GET', `${WEB}/pipelines/2/jobs`, 'alice', { query: { per_page: '100' } }),
    ]);
    expect(stale.text).toContain(`Already retried by @bob: job #${newId} replaces it. Nothing was changed.`);
    expect(stale.text).not.toMatch(/only developers|\(403\)|Retried by <@U0ALICE>/);
    expect(stale.message.key).toBe(shared.message.key);
    expect(stale.message.version).toBe(2);
  });

  it('says a pipeline someone else canceled is not running any more, without calling cancel', async () => {
    const shared = await h.ask('alice', 'pipeline demo/web 9 --share', /Pipeline #9 /);
    const prompt = await h.ask('bob', 'pipeline cancel demo/web 9', /Cancel pipeline #9/);
    await h.press('bob', buttonOf(prompt, /^Yes, cancel/), /Canceled by <@U0BOB>/);
    const from = h.calls().length;

    const stale = await h.press('alice', buttonOf(shared, /^Cancel$/), /Not running any more/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/pipelines/9`, 'alice'),
      call('GET', `${WEB}/pipelines/9`, 'alice'),
      call('GET', `${WEB}/pipelines/9/jobs`, 'alice', { query: { per_page: '100' } }),
    ]);
    expect(stale.text).toContain(
      'Not running any more (it is canceled), so there is nothing to cancel. Nothing was changed.',
    );
    expect(stale.text).not.toContain('Canceled by <@U0ALICE>');
    expect(stale.message.key).toBe(shared.message.key);
    expect(labels(stale.message)).toEqual(['Retry', 'Jobs', 'Open in GitLab']);
  });

  it('says a job that finished meanwhile has nothing to cancel, from a list row', async () => {
    const list = await h.ask('alice', 'jobs demo/web --scope running', /Jobs in demo\/web/);
    await h.api('bob', 'projects/demo%2Fweb/jobs/22/cancel', { method: 'POST' });
    const from = h.calls().length;
    const stale = await h.press('alice', buttonOf(list, /^Cancel$/), /Not running any more/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/jobs/22`, 'alice'),
      call('GET', `${WEB}/jobs`, 'alice', { query: { page: '1', scope: ['running'] } }),
    ]);
    expect(stale.message.key).toBe(list.message.key);
    expect(stale.text).toMatch(/#22\S* lint .* canceled/);
  });
});

describe('cards offer only what can still be done', () => {
  it('does not offer Keep artifacts again after keeping them', async () => {
    const card = await h.ask('alice', 'job demo/web 1', /Job #1 /);
    expect(labels(card.message)).toContain('Keep artifacts');
    const kept = await h.press('alice', buttonOf(card, /^Keep artifacts$/), /Artifacts kept by/);
    expect(labels(kept.message)).toEqual(['Retry', 'Erase', 'Trace', 'Open in GitLab']);
    expect(kept.text).toMatch(/:package: artifacts\.zip \(\d+ B\), kept/);
  });

  it('shows when artifacts expire, and a card read again after Keep says kept without offering Keep (issue 29, item 4)', async () => {
    const card = await h.ask('alice', 'job demo/web 1', /Job #1 /);
    expect(card.text).toMatch(/:package: artifacts\.zip \(\d+ B\), expire (in|\d)/);
    await h.press('alice', buttonOf(card, /^Keep artifacts$/), /Artifacts kept by/);
    const again = await h.ask('bob', 'job demo/web 1', /Job #1 /);
    expect(labels(again.message)).not.toContain('Keep artifacts');
    expect(again.text).toMatch(/:package: artifacts\.zip \(\d+ B\), kept/);
  });

  it('does not offer Erase, Keep or Trace on a job whose trace and artifacts are gone', async () => {
    await h.api('alice', 'projects/demo%2Fweb/jobs/1/erase', { method: 'POST' });
    const from = h.calls().length;
    const card = await h.ask('bob', 'job demo/web 1', /Job #1 /);
    expect(h.calls(from)).toEqual([call('GET', `${WEB}/jobs/1`, 'bob'), call('GET', `${WEB}/jobs/1/trace`, 'bob')]);
    expect(labels(card.message)).toEqual(['Retry', 'Open in GitLab']);
    expect(card.text).toContain('trace and artifacts erased');
  });

  it('gives way to the job acted on when the fresh page no longer shows it, with a way back to the list (issue 47)', async () => {
    const list = await h.ask('alice', 'jobs demo/web --scope failed,manual', /Jobs in demo\/web/);
    const played = await h.press('alice', buttonOf(list, /^Play$/), /Started by/);
    // The played job is pending now, so the page of failed and manual jobs does not have it: it is drawn alone,
    // as it is now, not on top of rows and counts that leave it out.
    expect(played.text).toContain('Started by <@U0ALICE> · job #17 Now:');
    expect([...played.text.matchAll(/\|#(\d+)>\* /g)].map((m) => Number(m[1]))).toEqual([17]);
    expect(played.text).not.toMatch(/in all|shown/);
    expect(played.text).toContain('Not on page 1 of this list now.');
    const back = await h.press('alice', buttonOf(played, /^Back to the list$/), /Jobs in demo\/web/);
    const rows = [...back.text.matchAll(/\|#(\d+)>\* /g)].map((m) => Number(m[1]));
    expect(rows).not.toContain(17);
    expect(back.text).toContain(`Page 1 · ${rows.length} in all · ${rows.length} shown`);
  });

  it('draws a job acted on from a list once: in its place when the fresh page still has it (issue 47)', async () => {
    const list = await h.ask('alice', 'jobs demo/web --scope failed --per-page 2', /Jobs in demo\/web/);
    const first = Number(/\|#(\d+)>\* /.exec(list.text)?.[1]);
    // Someone retries it elsewhere first: the list's Retry then finds it already retried, and says so.
    await h.api('bob', `projects/demo%2Fweb/jobs/${first}/retry`, { method: 'POST' });
    const seen = await h.press('alice', buttonOf(list, /^Retry$/), /Already retried/);
    const ids = [...seen.text.matchAll(/\|#(\d+)>\* /g)].map((m) => Number(m[1]));
    expect(ids.filter((id) => id === first)).toHaveLength(1);
    expect(seen.text).not.toContain('Now:');
    expect(seen.text).toMatch(new RegExp(`· ${ids.length} shown`));
  });
});
