import { expect } from 'vitest';
import type { FakeMessage } from '../../support/fake-slack.js';
import { buttonsOf, type FoundButton, type Interaction, messageText } from '../../support/slack-driver.js';
import { PEOPLE, type PersonName } from '../../support/start-app.js';
import { type CiHarness, call, WEB } from '../ci/harness.js';

// What the merge request tests share: paths, the head pipeline read every open card makes, and the
// merge modal (opened by a click, submitted as Slack would, the card redrawn where it was).

export const MR = (iid: number) => `${WEB}/merge_requests/${iid}`;

/** The read that finds an open merge request's head pipeline among its source branch's newest pipelines. */
export const headPipelineRead = (branch: string, user: string) =>
  call('GET', `${WEB}/pipelines`, user, { query: { ref: branch, per_page: '20' } });

export const labels = (m: FakeMessage | { message: FakeMessage }) =>
  buttonsOf('message' in m ? m.message : m).map((b) => b.text);

/** The full head sha of a merge request, read as alice directly from the simulator (the read lands in its log). */
export async function headOf(h: CiHarness, iid: number): Promise<string> {
  const res = await h.api('alice', `projects/demo%2Fweb/merge_requests/${iid}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { sha: string }).sha;
}

export interface OpenedModal {
  click: Interaction;
  view: Record<string, unknown>;
  text: string;
}

/** Clicks a button that opens a modal and returns the modal Slack shows. */
export async function openModal(h: CiHarness, person: PersonName, button: FoundButton): Promise<OpenedModal> {
  const click = await h.click(person, button);
  const opened = await click.waitFor((r) => r.method === 'views.open');
  if (!opened?.ok || !opened.view)
    expect.fail(`no modal opened after [${button.text}]: ${click.text() || '(nothing)'}`);
  return { click, view: opened.view, text: messageText({ blocks: opened.view.blocks as unknown[] }) };
}

export interface Submitted {
  it: Interaction;
  message: FakeMessage;
  text: string;
}

/** Submits a modal as `person` and waits until a message matching `until` is shown (the card redrawn in place, usually). */
export async function submit(
  h: CiHarness,
  person: PersonName,
  modal: OpenedModal,
  values: Record<string, string | null>,
  until: RegExp,
): Promise<Submitted> {
  const it = await h.bot.slack.submitView(PEOPLE[person], modal.view, values);
  expect(it.ack.status).toBe(200);
  // The modal closes at once: the answer comes after the ack, where the modal was opened.
  expect(it.ack.text).toBe('');
  const message = await it.waitForMessage((text) => until.test(text));
  if (!message)
    expect.fail(`after submitting, no message matched ${until}; the person saw:\n${it.text() || '(nothing)'}`);
  return { it, message, text: messageText(message) };
}

/** The merge modal's checkbox: ticked or not. */
export const REMOVE_SOURCE = 'remove_source_branch';
