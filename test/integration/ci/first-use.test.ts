import { describe, expect, it } from 'vitest';
import { buttonsOf } from '../../support/slack-driver.js';
import { call, useCiBot, WEB } from './harness.js';

// What a new user trips over on a first try (issue 29): a private project's name told to the whole channel,
// help saying the same sentence twice, times in another zone than the Home's, a link the card already has as a
// button, and a usage example that does not work on the demo data.

const h = useCiBot();

const count = (text: string, part: string) => text.split(part).length - 1;

describe('/gl use with a project that is not public', () => {
  it('tells the person the project privately, and the channel only that a default was set', async () => {
    const seen = await h.ask('alice', 'use demo/secret', /default project/, { channel: 'C0PRIVATE' });
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fsecret', 'alice')]);
    const said = await seen.it.waitForMessage((_t, m) => !m.ephemeral);
    const messages = seen.it.messages();
    const privately = messages.filter((m) => m.ephemeral);
    const posted = messages.filter((m) => !m.ephemeral);
    expect(said).not.toBeNull();
    expect(privately).toHaveLength(1);
    expect(posted).toHaveLength(1);
    expect(privately[0]).toMatchObject({ visibleTo: 'U0ALICE' });
    expect(JSON.stringify(privately[0])).toContain('demo/secret');
    expect(JSON.stringify(posted[0])).not.toMatch(/secret/i);
    expect(JSON.stringify(posted[0])).toContain('set a default project for this channel');

    // The default is set all the same.
    const jobs = await h.ask('alice', 'jobs', /Jobs in demo\/secret/, { channel: 'C0PRIVATE' });
    expect(jobs.message.ephemeral).toBe(true);
  });

  // Issue 46: on aefc319 bob read "Project demo/secret was not found, or you have no access to it (404). Check the
  // name and your membership." for a `/gl jobs` he typed without a project, and `--clear` named it to everyone.
  it('is never named afterwards to someone who cannot see it, and its refusal blames the default', async () => {
    await h.ask('alice', 'use demo/secret', /default project/, { channel: 'C0HIDDEN' });
    for (const text of ['jobs', 'issue #1', 'pipelines']) {
      const from = h.calls().length;
      const refused = await h.ask('bob', text, /can't see/, { channel: 'C0HIDDEN' });
      expect(refused.text).toContain(
        "This channel's default project is one you can't see; give a project (`group/project`) or ask <@U0ALICE>.",
      );
      expect(JSON.stringify(refused.message)).not.toMatch(/secret/i);
      // One read as bob (then remembered a few minutes), and nothing else.
      expect(h.calls(from).every((c) => c.path === '/api/v4/projects/demo%2Fsecret' && c.user === 'bob')).toBe(true);
    }
    // alice still leans on it.
    await h.ask('alice', 'issue #1', /demo\/secret#1|#1/, { channel: 'C0HIDDEN' });

    // What would post its name into the channel, leaning on the default, is refused before anything is read;
    // naming the project is the person's own choice.
    for (const text of ['jobs --share', 'issues --share', 'watch pipelines']) {
      const from = h.calls().length;
      const refused = await h.ask('alice', text, /never told its name/, { channel: 'C0HIDDEN' });
      expect(refused.message.ephemeral).toBe(true);
      expect(h.calls(from)).toEqual([]);
    }
    expect(
      JSON.stringify([...h.bot.fake.messages.values()].filter((m) => m.channel === 'C0HIDDEN' && !m.ephemeral)),
    ).not.toMatch(/secret/i);
    const named = await h.ask('alice', 'jobs demo/secret --share', /Jobs in demo\/secret/, { channel: 'C0HIDDEN' });
    expect(named.message.ephemeral).toBe(false);

    const cleared = await h.ask('bob', 'use --clear', /cleared this channel's default project/, {
      channel: 'C0HIDDEN',
    });
    expect(cleared.message.ephemeral).toBe(false);
    expect(JSON.stringify(cleared.message)).not.toMatch(/secret/i);
    expect(cleared.text).toContain('one that is not public, so it is not named here');
  });

  it('still announces a public project by name', async () => {
    const seen = await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0PUBLIC' });
    expect(seen.message.ephemeral).toBe(false);
    expect(seen.text).toContain("set this channel's default project to <");
    expect(seen.text).toContain('|demo/web>');
  });
});

describe('small things', () => {
  it('says what --share does once in help', async () => {
    const overview = await h.ask('alice', 'help', /help/);
    expect(count(overview.text, '`--share`')).toBe(1);
    const jobs = await h.ask('alice', 'help jobs', /help|job/);
    expect(count(jobs.text, '`--share`')).toBe(1);
  });

  it("shows whoami's times in the person's Slack zone, as the Home does", async () => {
    const seen = await h.ask('alice', 'whoami', /connected/);
    expect(seen.text).toMatch(/since \d{1,2} \w{3} \d{4}, \d\d:\d\d Europe\/Berlin/);
    expect(seen.text).not.toContain('UTC');
  });

  it('offers "Open in GitLab" once on the job card', async () => {
    const seen = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    expect(count(JSON.stringify(seen.message.blocks), 'Open in GitLab')).toBe(1);
    expect(buttonsOf(seen.message).map((b) => b.text)).toContain('Open in GitLab');
  });

  it('gives an artifacts example in help that works on the demo data', async () => {
    const help = await h.ask('alice', 'help job', /artifacts/);
    const example = /e\.g\. `\/gl (job artifacts [^`]*--job [^`]*)`/.exec(help.text)?.[1];
    expect(example).toBeDefined();
    const from = h.calls().length;
    const seen = await h.ask('alice', example as string, /Artifacts of|no artifacts|not found/);
    expect(h.calls(from).map((c) => c.status)).toEqual([200]);
    expect(seen.text).toContain('Artifacts of the latest successful');
    expect(h.calls(from)[0]?.path).toBe(`${WEB}/jobs/artifacts/main/download`);
  });
});
