import { expect } from 'vitest';
import type { FakeRecord } from '../../support/fake-slack.js';
import { buttonsOfView, type FoundViewButton, type Interaction, messageText } from '../../support/slack-driver.js';
import { PEOPLE, type PersonName } from '../../support/start-app.js';
import type { CiHarness } from '../ci/harness.js';

// The Home tab as a test sees it: opened as a person (the app_home_opened event), the view the bot published,
// its text and buttons, and clicks on them (no message, no channel, no response_url: Slack sends the view).

export interface PublishedHome {
  it: Interaction;
  record: FakeRecord;
  view: Record<string, unknown>;
  text: string;
}

function homeOf(it: Interaction, record: FakeRecord | null, what: string): PublishedHome {
  if (!record?.view) expect.fail(`${what}: no Home was published; Slack saw ${JSON.stringify(it.records())}`);
  expect(record.body.user_id).toBe(it.meta.user.id);
  const view = record.view;
  return { it, record, view, text: messageText({ blocks: view.blocks as unknown[] }) };
}

const published = (r: FakeRecord) => r.method === 'views.publish' && r.ok;

/** Opens `person`'s Home tab and waits for the Home the bot publishes. */
export async function openHome(h: CiHarness, person: PersonName): Promise<PublishedHome> {
  const it = await h.bot.slack.openHome(PEOPLE[person]);
  expect(it.ack.status).toBe(200);
  return homeOf(it, await it.waitFor(published), `opening ${person}'s Home`);
}

/** A button of the Home by its label (the first one that matches), or a failed expectation naming those there are. */
export function homeButton(home: PublishedHome, label: RegExp, nth = 0): FoundViewButton {
  const found = buttonsOfView(home.view).filter((b) => label.test(b.text));
  const b = found[nth];
  if (!b) {
    expect.fail(
      `no button ${label} on the Home; it has ${buttonsOfView(home.view)
        .map((x) => `[${x.text}]`)
        .join(' ')}`,
    );
  }
  return b;
}

/** Clicks a Home button as `person`; waits for the Home published again. */
export async function pressOnHome(h: CiHarness, person: PersonName, button: FoundViewButton): Promise<PublishedHome> {
  const it = await h.bot.slack.clickInView(PEOPLE[person], button);
  expect(it.ack.status).toBe(200);
  return homeOf(it, await it.waitFor(published), `${person} clicking [${button.text}] on the Home`);
}

/** Clicks a Home button that opens a modal; returns the modal Slack shows. */
export async function openModalFromHome(
  h: CiHarness,
  person: PersonName,
  button: FoundViewButton,
): Promise<Record<string, unknown>> {
  const it = await h.bot.slack.clickInView(PEOPLE[person], button);
  expect(it.ack.status).toBe(200);
  const opened = await it.waitFor((r) => r.method === 'views.open');
  if (!opened?.ok || !opened.view) expect.fail(`no modal opened after [${button.text}] on the Home`);
  return opened.view;
}

/** The text of one section of the Home: from its header to the next divider. */
export function sectionText(home: PublishedHome, title: string): string {
  const blocks = home.view.blocks as { type: string; text?: { text?: string } }[];
  const start = blocks.findIndex((b) => b.type === 'header' && b.text?.text === title);
  if (start < 0) return '';
  const end = blocks.findIndex((b, i) => i > start && b.type === 'divider');
  return messageText({ blocks: blocks.slice(start, end < 0 ? undefined : end) });
}
