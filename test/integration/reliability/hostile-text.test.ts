import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../support/fake-slack.js';
import { findMarkupLeaks, payloadsOf } from '../../support/markup-leaks.js';
import type { Interaction } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { buttonOf, confirmText, useCiBot } from '../ci/harness.js';

// Defect 1 of issue 17: text from the server is data wherever it goes. The simulator holds a schedule
// described `<!channel> <https://evil.example|click>`, a branch and a job named `<!channel>`, and a job
// whose status is markup; every command and button that shows them runs, and every string of every payload
// the bot sent Slack (acks, messages, updates, confirm dialogs, modals, file titles and names) is checked.
// On 1388a11 the fallback `text` of messages and the confirm dialogs carried `<!channel>` and the link
// raw, and the status was not escaped either.

const h = useCiBot();

const EVIL = '<!channel> <https://evil.example|click>';
const CHANNEL = '<!channel>';
const STATUS = '<!here> <https://evil.example|pwned> & <@U0BOB>';

let pipelineId = 0;
let scheduleId = 0;
let fromSeq = 0;
const interactions: Interaction[] = [];

beforeEach(async () => {
  fromSeq = h.bot.fake.lastSeq;
  interactions.length = 0;
  // A branch named <!channel> with a pipeline (its jobs carry the ref), a job named <!channel>, a job whose
  // status is markup, and a schedule whose description is a mass mention and a disguised link.
  h.sim.addBranch('demo/web', CHANNEL);
  const made = await h.api('root', 'projects/demo%2Fweb/pipeline', { method: 'POST', form: { ref: CHANNEL } });
  expect(made.status).toBe(201);
  pipelineId = ((await made.json()) as { id: number }).id;
  h.sim.editJob(8, { name: CHANNEL, ref: CHANNEL, trace: `${EVIL}\nsecond line ${CHANNEL}\n` });
  h.sim.editJob(7, { status: STATUS, name: `${EVIL} deploy` });
  const schedule = await h.api('root', 'projects/demo%2Fweb/pipeline_schedules', {
    method: 'POST',
    form: { description: EVIL, ref: CHANNEL, cron: '0 2 * * *', cron_timezone: 'UTC' },
  });
  expect(schedule.status).toBe(201);
  scheduleId = ((await schedule.json()) as { id: number }).id;
});

async function ask(text: string, until: RegExp) {
  const seen = await h.ask('alice', text, until);
  interactions.push(seen.it);
  return seen;
}

/** Everything the bot sent since the test began, acks included, checked for markup it did not write. */
function expectNoLeaks() {
  const payloads = payloadsOf(h.bot.fake.since(fromSeq));
  for (const it of interactions) if (it.ack.json) payloads.push({ where: 'ack', body: it.ack.json });
  // Links the bot makes on purpose: the server's pages (environments on other hosts are text, not links).
  const linkPrefixes = [h.sim.url];
  expect(findMarkupLeaks(payloads, { linkPrefixes })).toEqual([]);
  // And the hostile text did reach the person, escaped: the test looked at the real thing.
  const all = JSON.stringify(payloads);
  expect(all).toContain('&lt;!channel&gt;');
}

describe('text from the server that looks like Slack markup', () => {
  it('stays text in job lists, cards, confirm dialogs, redraws, traces and uploaded files', async () => {
    await ask('jobs demo/web', /Jobs in demo\/web/);
    const card = await ask('job demo/web 8 --share', /Job #8 /);
    expect(confirmText(buttonOf(card, /^Erase$/))).toContain('&lt;!channel&gt;');
    await ask('job demo/web 7 --share', /Job #7 /);
    const retried = await h.press('alice', buttonOf(card, /^Retry$/), /Retried by/);
    interactions.push(retried.it);
    await ask('job trace demo/web 8', /Trace of job #8/);
    await ask('job trace demo/web 8 --full --share', /whole trace/);
    await ask('job erase demo/web 8', /Erase/);
    await ask(`jobs demo/web --pipeline ${pipelineId}`, /Jobs of pipeline/);
    expectNoLeaks();
  });

  it('stays text in pipeline lists and cards of a branch named <!channel>', async () => {
    await ask('pipelines demo/web', /Pipelines in demo\/web/);
    await ask(`pipelines demo/web --ref ${CHANNEL}`, /Pipelines in demo\/web/);
    const card = await ask(`pipeline demo/web ${pipelineId} --share`, new RegExp(`Pipeline #${pipelineId}`));
    for (const b of card.it.buttons()) if (b.confirm) expect(confirmText(b)).not.toMatch(/<!|<http/);
    expectNoLeaks();
  });

  it('stays text in schedule lists, cards and their confirm dialogs', async () => {
    await ask('schedules demo/web', /schedules in demo\/web/i);
    const card = await ask(`schedule demo/web ${scheduleId} --share`, /evil\.example/);
    for (const b of card.it.buttons()) if (b.confirm) expect(confirmText(b)).not.toMatch(/<!|<http/);
    await ask(`schedule delete demo/web ${scheduleId}`, /Delete/);
    await ask('deployments demo/web', /Deployments in demo\/web/);
    expectNoLeaks();
  });

  it('stays text in issues, merge requests, todos, awards and events', async () => {
    // An issue and a merge request (from the branch named <!channel>) with markup in every text field, an
    // award, and the todos and events they make for alice.
    const issue = await h.api('root', 'projects/demo%2Fweb/issues', {
      method: 'POST',
      form: { title: EVIL, description: `${STATUS}\n${EVIL}`, labels: `${CHANNEL},bug`, assignee_ids: '2' },
    });
    expect(issue.status).toBe(201);
    const iid = ((await issue.json()) as { iid: number }).iid;
    const mr = await h.api('root', 'projects/demo%2Fweb/merge_requests', {
      method: 'POST',
      form: { source_branch: CHANNEL, target_branch: 'main', title: EVIL, description: STATUS, assignee_id: '2' },
    });
    expect(mr.status).toBe(201);
    const mrIid = ((await mr.json()) as { iid: number }).iid;
    expect(
      (
        await h.api('root', `projects/demo%2Fweb/issues/${iid}/award_emoji`, {
          method: 'POST',
          form: { name: 'tada' },
        })
      ).status,
    ).toBe(201);

    await ask('issues demo/web', /Issues in demo\/web/i);
    const card = await ask(`issue demo/web#${iid} --share`, /evil\.example/);
    for (const b of card.it.buttons()) if (b.confirm) expect(confirmText(b)).not.toMatch(/<!|<http/);
    await ask(`issue delete demo/web#${iid}`, /Delete/);
    await ask('mrs demo/web', /Merge requests in demo\/web/i);
    const mrCard = await ask(`mr demo/web!${mrIid} --share`, /evil\.example/);
    for (const b of mrCard.it.buttons()) if (b.confirm) expect(confirmText(b)).not.toMatch(/<!|<http/);
    await ask(`mr merge demo/web!${mrIid}`, /Merge/);
    await ask(`awards demo/web#${iid}`, /tada/);
    await ask('todos', /[Tt]odo/);
    await ask('events demo/web', /[Ee]vents|activity/);
    expectNoLeaks();
  });

  it('stays text on the Home tab and in link previews and their prompts', async () => {
    // An issue and a merge request assigned to alice (her todos too), with markup for titles, next to the schedule
    // and job of the others; a private issue so that alice is asked before its preview is shown.
    const issue = await h.api('root', 'projects/demo%2Fweb/issues', {
      method: 'POST',
      form: { title: EVIL, description: STATUS, labels: `${CHANNEL},bug`, assignee_ids: '2' },
    });
    const iid = ((await issue.json()) as { iid: number }).iid;
    const mr = await h.api('root', 'projects/demo%2Fweb/merge_requests', {
      method: 'POST',
      form: { source_branch: CHANNEL, target_branch: 'main', title: EVIL, assignee_id: '2' },
    });
    const mrIid = ((await mr.json()) as { iid: number }).iid;
    const secret = await h.api('root', 'projects/demo%2Fsecret/issues', { method: 'POST', form: { title: EVIL } });
    const secretIid = ((await secret.json()) as { iid: number }).iid;

    const home = await h.bot.slack.openHome(PEOPLE.alice);
    const published = await home.waitFor((r) => r.method === 'views.publish' && r.ok);
    expect(JSON.stringify(published?.view)).toContain('evil.example');

    const urls = [
      `${h.sim.url}/demo/web/-/issues/${iid}`,
      `${h.sim.url}/demo/web/-/merge_requests/${mrIid}`,
      `${h.sim.url}/demo/web/-/pipeline_schedules/${scheduleId}`,
      `${h.sim.url}/demo/web/-/jobs/7`,
    ];
    const shared = await h.bot.slack.shareLinks(PEOPLE.alice, 'C0TEST', urls);
    const unfurled = await shared.it.waitFor((r) => r.method === 'chat.unfurl');
    expect(unfurled?.ok).toBe(true);
    expect(JSON.stringify(unfurled?.body)).toContain('evil.example');
    const asking = await h.bot.slack.shareLinks(PEOPLE.alice, 'C0TEST', [
      `${h.sim.url}/demo/secret/-/issues/${secretIid}`,
    ]);
    const prompt = await asking.it.waitFor((r) => r.method === 'chat.postEphemeral');
    expect(prompt?.ok).toBe(true);
    const shown = await h.press('alice', buttonOf(prompt?.message as FakeMessage, /^Show$/), /now shown/);
    interactions.push(shown.it);
    expectNoLeaks();
  });
});
