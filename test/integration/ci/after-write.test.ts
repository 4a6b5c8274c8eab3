import { describe, expect, it } from 'vitest';
import { buttonOf, useCiBot } from './harness.js';

// After a write the answer says what happened first. What could not be read again afterwards (a 404 on a read
// the write did not need, a server that stopped answering) is one line under it, never the answer: a person who
// reads "not found" after the move or the retry happened would try again, or think nothing did.

const h = useCiBot();

/** From now on the simulator answers 404 to the calls whose `METHOD path` matches `only`. */
const failReads = (only: string) => h.sim.setFaults({ errorRate: 1, errorStatus: 404, only });

const UNREAD = /could not be read afterwards \(the server did not find it \(404\)\)/;

function expectDoneNotFailed(text: string, done: string) {
  expect(text).toContain(done);
  expect(text).toMatch(UNREAD);
  expect(text).not.toMatch(/was not found|:no_entry:/);
}

describe('a write whose answer cannot be read again', () => {
  it('pipeline retry: says it was retried, and that the pipeline and its jobs could not be read', async () => {
    failReads('^GET .*/pipelines/2(/jobs)?$');
    const seen = await h.ask('alice', 'pipeline retry demo/web 2', /Retried by|not found|went wrong/);
    expectDoneNotFailed(seen.text, 'Retried by <@U0ALICE> · pipeline #2');
    expect(seen.text).toContain('Pipeline #2 and its jobs could not be read afterwards');
    expect(seen.text).toContain('Pipeline #2');
  });

  it('pipeline cancel from a list: says it was canceled, and that the list could not be read again', async () => {
    const list = await h.ask('alice', 'pipelines demo/web --status running', /Pipelines in/);
    failReads('^GET .*/pipelines$');
    const click = await h.press('alice', buttonOf(list, /^Cancel$/), /Canceled by|not found|went wrong/);
    expectDoneNotFailed(click.text, 'Canceled by <@U0ALICE> · pipeline #7');
    expect(click.text).toContain('The list could not be read afterwards');
  });

  it('job retry from a list: says it was retried, and that the list could not be read again', async () => {
    const list = await h.ask('alice', 'jobs demo/web --scope failed', /Jobs in/);
    failReads('^GET .*/jobs$');
    const click = await h.press('alice', buttonOf(list, /^Retry$/), /Retried by|not found|went wrong/);
    expectDoneNotFailed(click.text, 'Retried by <@U0ALICE>');
    expect(click.text).toContain('The list could not be read afterwards');
  });

  it('issue close: closes, and says its time tracking could not be read', async () => {
    failReads('^GET .*/issues/4/time_stats$');
    const seen = await h.ask('alice', 'issue close demo/web#4', /Closed by|not found|went wrong/);
    expectDoneNotFailed(seen.text, 'Closed by <@U0ALICE> · issue demo/web#4');
    expect(seen.text).toContain('Its time tracking could not be read afterwards');
    expect(seen.text).toContain(':large_purple_circle: closed');
    const issue = (await (await h.api('alice', 'projects/demo%2Fweb/issues/4')).json()) as { state: string };
    expect(issue.state).toBe('closed');
  });

  it('issue move: says where it moved, and that its time tracking could not be read', async () => {
    failReads('^GET .*demo%2Fdocs/issues/\\d+/time_stats$');
    const seen = await h.ask('alice', 'issue move demo/web#5 demo/docs', /Moved by|not found|went wrong/);
    expectDoneNotFailed(seen.text, 'Moved by <@U0ALICE> · from demo/web#5 to');
    expect(seen.text).toContain('Add order history page');
  });

  it('issue unsubscribe: says so, and that its time tracking could not be read', async () => {
    failReads('^GET .*/issues/4/time_stats$');
    const seen = await h.ask('alice', 'issue unsubscribe demo/web#4', /Unsubscribed by|not found|went wrong/);
    expectDoneNotFailed(seen.text, 'Unsubscribed by <@U0ALICE> · issue demo/web#4');
  });

  it('issue todo: says it was added, and that its time tracking could not be read', async () => {
    failReads('^GET .*/issues/2/time_stats$');
    const seen = await h.ask('eve', 'issue todo demo/web#2', /Added to the todos|not found|went wrong/);
    expectDoneNotFailed(seen.text, 'Added to the todos by <@U0EVE> · issue demo/web#2');
  });

  it('issue edit: says it was updated, and that its time tracking could not be read', async () => {
    failReads('^GET .*/issues/4/time_stats$');
    const seen = await h.ask('alice', 'issue edit demo/web#4 --title "Cart total"', /Updated by|not found|went wrong/);
    expectDoneNotFailed(seen.text, 'Updated by <@U0ALICE> · issue demo/web#4');
  });

  it('👍 from a card: says it was given even when the issue cannot be read again at all', async () => {
    const card = await h.ask('eve', 'issue demo/web#2', /#2 ·/);
    failReads('^GET .*/issues/2(/time_stats)?$');
    const click = await h.press('eve', buttonOf(card, /^👍/), /given by|not found|went wrong/);
    expectDoneNotFailed(click.text, ':thumbsup: given by <@U0EVE> · issue demo/web#2');
    expect(click.text).toContain('Issue demo/web#2 could not be read afterwards');
  });
});
