import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE, type Demo, startDemo } from '../../src/console/demo.js';
import { startWebDemo, type WebDemo } from '../../src/console/web/server.js';
import { HOW_TO_GET_CHROMIUM, hasChromium, launchChromium } from '../support/chromium.js';
import { fakeClock } from '../support/clock.js';

// `npm run demo -- --web` in a real browser: the OS's Chromium opens the page, a person types commands into the
// composer, clicks the cards' buttons, fills in the issue form, switches person, and sees a digest arrive without a
// reload. Everything goes through the page as a person would use it (roles and names, not CSS), to the bot and back
// through the fake Slack. A failing test leaves a screenshot in test-results/browser/. With SAVE_DOCS_SCREENSHOT=1
// the card after Retry is saved as docs/demo-web-card.png, the picture in the README.

const RESULTS = path.resolve(import.meta.dirname, '../../test-results/browser');
const DOCS_PICTURE = path.resolve(import.meta.dirname, '../../docs/demo-web-card.png');
const WAIT = { timeout: 15_000 };

// CI (.ci/run) installs Chromium and sets REQUIRE_BROWSER_SUITE=1: there a missing browser fails the suite.
const found = hasChromium();
const required = process.env.REQUIRE_BROWSER_SUITE === '1';
if (!found && !required) process.stderr.write(`Skipping the browser suite (test/browser): ${HOW_TO_GET_CHROMIUM}\n`);

describe.skipIf(!found && !required)('the demo in a browser', () => {
  const clock = fakeClock();
  let demo: Demo;
  let web: WebDemo;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  /** What the terminal console printed meanwhile: the same fake Slack, the other view. */
  const printed: string[] = [];

  beforeAll(async () => {
    demo = await startDemo({
      write: (t) => printed.push(t),
      ask: async () => null,
      now: clock.now,
      digests: { timer: 'manual', spreadMs: 0, channelIntervalMs: 0 },
      follows: { channelIntervalMs: 0 },
      watches: { channelIntervalMs: 0 },
      alerts: { channelIntervalMs: 0 },
    });
    web = await startWebDemo({ demo, people: DEMO_PEOPLE, channels: DEMO_CHANNELS, slashCommand: '/gl' });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.goto(web.url);
    await page.locator('body[data-seq]').waitFor({ state: 'attached' });
  }, 60_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, `${ctx.task.name.replace(/\W+/g, '-')}.png`), fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await demo?.close();
  });

  const composer = () => page.getByRole('textbox', { name: 'Message' });
  const type = async (text: string) => {
    await composer().fill(text);
    await composer().press('Enter');
  };
  /** The failed job the first test retried. */
  let failedJob = '';
  const article = (text: string | RegExp): Locator => page.getByRole('article').filter({ hasText: text });

  it('types a command, sees the card, clicks Retry and sees the card redrawn in place saying it was retried', async () => {
    await type('/gl jobs demo/web --scope failed');
    const list = article('Jobs in demo/web').last();
    await list.waitFor(WAIT);
    expect(await list.innerText()).toContain('Only visible to you');
    const id = (
      await list
        .getByRole('link', { name: /^#\d+$/ })
        .first()
        .innerText()
    ).slice(1);
    failedJob = id;

    await type(`/gl job demo/web ${id}`);
    const card = article(`Job #${id}`).last();
    await card.getByRole('button', { name: 'Retry' }).waitFor(WAIT);
    const before = await page.getByRole('article').count();
    await card.getByRole('button', { name: 'Retry' }).click();
    const retried = article('Retried by').last();
    await retried.waitFor(WAIT);
    expect(await retried.innerText()).toMatch(new RegExp(`Retried by @alice · new job #\\d+ replaces #${id}`));
    // Redrawn where it was, not posted again; and the console, reading the same fake Slack, printed it too.
    expect(await page.getByRole('article').count()).toBe(before);
    expect(printed.join('\n')).toMatch(new RegExp(`Retried by @alice · new job #\\d+ replaces #${id}`));
    if (process.env.SAVE_DOCS_SCREENSHOT === '1') {
      await page.mouse.move(0, 0);
      await retried.screenshot({ path: DOCS_PICTURE });
    }
  }, 60_000);

  it("asks a button's confirm dialog first, and sends nothing when it is turned down", async () => {
    const card = article('Retried by').last();
    const seq = demo.fake.lastSeq;
    await card.getByRole('button', { name: 'Cancel' }).click();
    const confirm = page.getByRole('dialog', { name: /Cancel/ });
    await confirm.waitFor(WAIT);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached', ...WAIT });
    expect(demo.fake.since(seq)).toEqual([]);

    // A typed command's prompt taken back with Never mind is deleted, and goes from the page.
    await type(`/gl job cancel demo/web ${failedJob}`);
    const prompt = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Never mind' }) });
    await prompt.waitFor(WAIT);
    await prompt.getByRole('button', { name: 'Never mind' }).click();
    await prompt.waitFor({ state: 'detached', ...WAIT });
  }, 60_000);

  it('shows an uploaded file as a download', async () => {
    await type(`/gl job trace demo/web ${failedJob} --full --share`);
    const download = page.getByRole('link', { name: new RegExp(`job-${failedJob}-trace\\.log`) });
    await download.waitFor(WAIT);
    const href = await download.getAttribute('href');
    const res = await fetch(new URL(href ?? '', web.url));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="job-${failedJob}-trace.log"`);
    expect(await res.text()).toMatch(/\S/);
  }, 60_000);

  it('shows an uploaded image inline, drawn from its bytes', async () => {
    // What the bot's filesUploadV2 does for a chart: Slack's external upload, step by step, into #demo.
    const png = new PNG({ width: 40, height: 20 });
    png.data.fill(200);
    const bytes = PNG.sync.write(png);
    const api = (method: string, body: Record<string, unknown>) =>
      fetch(`${demo.fake.apiUrl}${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.fake.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const url = await api('files.getUploadURLExternal', { filename: 'chart.png', length: bytes.length });
    await fetch(String(url.upload_url), { method: 'POST', body: bytes });
    await api('files.completeUploadExternal', {
      files: [{ id: url.file_id, title: 'Delivery chart' }],
      channel_id: 'C0DEMO',
      initial_comment: 'The trend',
    });
    const image = page.getByRole('img', { name: 'chart.png' });
    await image.waitFor(WAIT);
    // Loaded and decoded: the bytes arrived as they were uploaded.
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(40);
  }, 60_000);

  it('shows HTML typed in a message, and in GitLab data, as text; the issue form shows its errors on the field', async () => {
    await type('/gl use demo/web');
    await article('demo/web').last().waitFor(WAIT);
    const typed = 'Coupons <b>vanish</b> <img src=x onerror="document.body.dataset.owned=1">';
    await type(typed);
    const message = article('Coupons').last();
    await message.waitFor(WAIT);
    expect(await message.innerText()).toContain(typed);
    expect(await message.locator('b, img:not([aria-hidden])').count()).toBe(0);

    // Typed into a command, it reaches GitLab as the title, and comes back as text on the card.
    await type('/gl issue create demo/web <b>Bold</b> & <img src=x onerror="document.body.dataset.owned=1">');
    const card = article('<b>Bold</b> & <img src=x').last();
    await card.waitFor(WAIT);
    expect(await card.locator('b, img').filter({ hasText: 'Bold' }).count()).toBe(0);
    expect(await card.locator('img').count()).toBe(0);

    // The message shortcut in the message's menu opens the form filled in from it.
    await message.hover();
    await message.getByRole('button', { name: 'More actions' }).click();
    await message.getByRole('menuitem', { name: /Create issue/ }).click();
    const form = page.getByRole('dialog', { name: 'New issue' });
    await form.waitFor(WAIT);
    const title = form.getByRole('textbox', { name: 'Title' });
    expect(await title.inputValue()).toContain('Coupons');

    await title.fill('');
    await form.getByRole('button', { name: /Create|Submit/ }).click();
    const error = form.getByText('Give the issue a title.');
    await error.waitFor(WAIT);
    expect(await title.getAttribute('aria-invalid')).toBe('true');

    await title.fill('<i>Coupons</i> & <script>document.body.dataset.owned=1</script> vanish');
    await form.getByRole('button', { name: /Create|Submit/ }).click();
    await form.waitFor({ state: 'detached', ...WAIT });
    // The reply in the message's thread names the issue by its title, as GitLab keeps it: text, not markup.
    const reply = article(/<i>Coupons<\/i>.*created by @alice/).last();
    await reply.waitFor(WAIT);
    expect(await reply.innerText()).toContain('<i>Coupons</i> & <script>');
    expect(await reply.locator('i, script').count()).toBe(0);
    // In the thread of the message it was made from, under it.
    const thread = page
      .getByRole('article')
      .filter({ hasText: typed })
      .getByLabel(/^Thread: 1 reply$/);
    expect(
      await thread
        .getByRole('article')
        .filter({ hasText: /created by @alice/ })
        .count(),
    ).toBe(1);
    expect(await page.evaluate('document.body.dataset.owned')).toBeUndefined();
  }, 60_000);

  it('closes a form with Esc, and opens the Home tab with its buttons', async () => {
    const message = article('Coupons').first();
    await message.hover();
    await message.getByRole('button', { name: 'More actions' }).click();
    await message.getByRole('menuitem', { name: /Create issue/ }).click();
    const form = page.getByRole('dialog', { name: 'New issue' });
    await form.waitFor(WAIT);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached', ...WAIT });

    await page.getByRole('navigation').getByRole('button', { name: /Home/ }).click();
    await page.getByRole('tab', { name: 'Home', selected: true }).waitFor(WAIT);
    await page.locator('#home').getByRole('button').first().waitFor(WAIT);
    await page.getByRole('navigation').getByRole('button', { name: /demo/ }).click();
    await composer().waitFor(WAIT);
  }, 60_000);

  it('shows a digest posted on its schedule without a reload', async () => {
    await type('/gl digest todos --here --cron "* * * * *"');
    await article('Digest #').last().waitFor(WAIT);
    await page.evaluate("document.body.dataset.sameLoad = 'yes'");
    clock.advance(61_000);
    await demo.digests.runDue();
    await article('pending todos').last().waitFor(WAIT);
    expect(await page.evaluate('document.body.dataset.sameLoad')).toBe('yes');
  }, 60_000);

  it('runs a workflow step from the panel: the consent comes by DM, Allow once lets the step complete', async () => {
    await page.getByText('Workflow steps').click();
    await page.getByRole('combobox', { name: 'Step' }).selectOption('run_pipeline');
    await page.getByRole('textbox', { name: 'Inputs' }).fill('project=demo/web ref=main user=@alice');
    await page.getByRole('button', { name: 'Run step' }).click();
    // The DM arrives while #demo is open: the sidebar marks it unread.
    const dm = page.getByRole('navigation').getByRole('button', { name: /GitLab\s*1$/ });
    await dm.waitFor(WAIT);
    await dm.click();
    const consent = article('A workflow asks to act as you').last();
    await consent.getByRole('button', { name: 'Allow once' }).click();
    await page
      .getByRole('list', { name: 'Workflow steps run' })
      .getByText(/completed/)
      .waitFor(WAIT);
    await page.getByRole('navigation').getByRole('button', { name: /demo/ }).click();
  }, 60_000);

  it('draws mrkdwn as Slack does, and only web links as links', async () => {
    const text = [
      '*bold* _italic_ ~strike~ `a <b>code</b>` <@U0BOB> <#C0DEMO> <!here> :tada: :nosuchemoji:',
      '<https://example.com/a?b=1&amp;c=2|a &lt;link&gt;> <javascript:alert(1)|click> <http://x.test/>',
      '&gt; quoted *too*',
      '```<pre> & *not bold*```',
    ].join('\n');
    const html = await page.evaluate(`import('/mrkdwn.js').then((m) => {
      const box = document.createElement('div');
      box.append(m.mrkdwn(${JSON.stringify(text)}, { userName: (id) => id === 'U0BOB' ? 'bob' : undefined, channelName: () => 'demo' }));
      return box.innerHTML;
    })`);
    expect(html).toBe(
      '<b>bold</b> <i>italic</i> <s>strike</s> <code class="code">a &lt;b&gt;code&lt;/b&gt;</code> ' +
        '<span class="mention">@bob</span> <span class="mention">#demo</span> ' +
        '<span class="mention broadcast">@here</span> <span class="emoji" title=":tada:">🎉</span> :nosuchemoji:<br>' +
        '<a class="link" href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">a &lt;link&gt;</a> ' +
        '&lt;javascript:alert(1)|click&gt; ' +
        '<a class="link" href="http://x.test/" target="_blank" rel="noopener noreferrer">http://x.test/</a>' +
        '<blockquote class="quote">quoted <b>too</b></blockquote>' +
        '<pre class="code-block">&lt;pre&gt; &amp; *not bold*</pre>',
    );
    // A time on a shared card is drawn in the reader's (this browser's) zone, its fallback on hover.
    const date = await page.evaluate(`import('/mrkdwn.js').then((m) => {
      const box = document.createElement('div');
      box.append(m.mrkdwn('<!date^1772542920^{date_short_pretty} {time}|3 Mar 2026, 13:02 UTC>', { userName: () => undefined, channelName: () => undefined }));
      const span = box.querySelector('span.date');
      const local = new Date(1772542920000).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      return { text: span?.textContent, title: span?.title, local };
    })`);
    expect(date).toMatchObject({ title: '3 Mar 2026, 13:02 UTC' });
    expect((date as { text: string; local: string }).text).toBe((date as { local: string }).local);
  }, 60_000);

  it('switches person: what only alice may see goes, and what bob does is done as bob', async () => {
    expect(await page.getByText('Only visible to you').count()).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'Acting as' }).selectOption('bob');
    await page.locator('#me-name', { hasText: 'bob' }).waitFor(WAIT);
    await article('pending todos').last().waitFor(WAIT);
    expect(await page.getByText('Only visible to you').count()).toBe(0);
    await type('/gl whoami');
    const answer = article("You're connected to").last();
    await answer.waitFor(WAIT);
    expect(await answer.innerText()).toMatch(/as @bob since[\s\S]*Only visible to you/);
  }, 60_000);
});
