import { ShortcutIds } from '../../ids.js';
import type { FakeSlack } from '../fake-slack.js';
import { type SlackPerson, slackEscape } from '../payloads.js';
import { buttonsOf, buttonsOfView, type Interaction, type SlackDriver } from '../slack-driver.js';
import { parseStepLine } from '../step-command.js';
import type { ModalStacks } from './modals.js';

// What a person does on the page, done to the bot as Slack would do it, through the console's SlackDriver: a typed
// command or message, a click on a message, Home tab or modal, a submitted or closed modal, the message shortcut, a
// workflow step, a tick. Each answers what the page must say at once (a refused command, a form's field errors);
// everything the bot shows comes back through the fake Slack, which the page reads again.

export interface ActionDeps {
  slack: SlackDriver;
  fake: FakeSlack;
  modals: ModalStacks;
  people: Readonly<Record<string, SlackPerson>>;
  slashCommand: string;
  /** The host of the server's links: Slack sends link_shared for these only (the app's unfurl domain). */
  linkHost: string;
  tick(): Promise<void>;
}

export type ActionResult =
  | { ok: true; notice?: string; errors?: Record<string, string> }
  | { ok: false; error: string };

type Body = Record<string, unknown>;

const str = (x: unknown): string => (typeof x === 'string' ? x : '');

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

function answered(it: Interaction): ActionResult {
  return it.ack.status === 200 ? { ok: true } : { ok: false, error: `The app answered HTTP ${it.ack.status}.` };
}

export function createActions(d: ActionDeps) {
  const personOf = (body: Body): SlackPerson | null => d.people[str(body.as)] ?? null;
  const owned = (it: Interaction, person: SlackPerson): Interaction => {
    d.modals.own(it.meta.triggerId, person.id);
    return it;
  };

  async function compose(person: SlackPerson, body: Body): Promise<ActionResult> {
    const text = str(body.text).trim();
    const channel = str(body.channel);
    if (!text) return { ok: true };
    if (!channel) return { ok: false, error: 'Which channel?' };
    const [word] = text.split(/\s+/);
    if (word === d.slashCommand) {
      // Slack marks the ack's own message as it does: the driver adds it to the fake Slack.
      const it = owned(await d.slack.command(person, text.slice(word.length).trim(), { channel }), person);
      return answered(it);
    }
    if (text.startsWith('/'))
      return { ok: true, notice: `${word} is not a valid command. The app's command is ${d.slashCommand}.` };
    // Slack keeps a message's text escaped (&amp; &lt; &gt;), its links included, and names the links unescaped in
    // link_shared.
    const links = [...text.matchAll(/https?:\/\/[^\s<>|]+/g)].map((m) => m[0]);
    const { it } = await d.slack.postMessage(person, {
      channel,
      text: slackEscape(text),
      urls: links.map(slackEscape),
      unfurled: links.filter((l) => hostOf(l) === d.linkHost),
    });
    return answered(it);
  }

  async function click(person: SlackPerson, body: Body): Promise<ActionResult> {
    const same = (b: { action_id: string; block_id?: string; value?: string }) =>
      b.action_id === str(body.action_id) &&
      (b.block_id ?? '') === str(body.block_id) &&
      (b.value ?? '') === str(body.value);
    const viewId = str(body.view);
    if (viewId) {
      const view = d.fake.views.get(viewId) ?? d.modals.stackOf(person.id).find((v) => v.id === viewId);
      const button = view ? buttonsOfView(view).find(same) : undefined;
      if (!button) return { ok: false, error: 'That button is no longer there.' };
      return answered(owned(await d.slack.clickInView(person, button), person));
    }
    const message = d.fake.messages.get(str(body.message));
    if (!message || message.deleted) return { ok: false, error: 'That message has been deleted.' };
    if (message.ephemeral && message.visibleTo !== person.id)
      return { ok: false, error: 'Only the person it was shown to can use that message.' };
    const button = buttonsOf(message).find(same);
    if (!button) return { ok: false, error: 'That button is no longer on its message.' };
    return answered(owned(await d.slack.click(person, button), person));
  }

  async function submit(person: SlackPerson, body: Body): Promise<ActionResult> {
    const view = d.modals.stackOf(person.id).at(-1);
    if (!view || view.id !== str(body.view)) return { ok: false, error: 'That form is no longer open.' };
    const values: Record<string, string | null> = {};
    for (const [k, v] of Object.entries((body.values as Body | undefined) ?? {}))
      values[k] = typeof v === 'string' && v !== '' ? v : null;
    const it = owned(await d.slack.submitView(person, view, values), person);
    if (it.ack.status !== 200) return { ok: false, error: `The app answered HTTP ${it.ack.status}.` };
    d.modals.submitted(person.id, it.ack.json);
    if (it.ack.json?.response_action === 'errors')
      return { ok: true, errors: (it.ack.json.errors as Record<string, string> | undefined) ?? {} };
    return { ok: true };
  }

  async function shortcut(person: SlackPerson, body: Body): Promise<ActionResult> {
    const message = d.fake.messages.get(str(body.message));
    if (!message || message.deleted || message.ephemeral)
      return { ok: false, error: 'Shortcuts work on messages in a channel.' };
    return answered(owned(await d.slack.shortcut(person, ShortcutIds.issueFromMessage, message), person));
  }

  async function step(body: Body): Promise<ActionResult> {
    const parsed = parseStepLine(str(body.line), d.people);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const { it } = await d.slack.runStep(parsed.step, parsed.inputs);
    return answered(it);
  }

  /** Runs the action `name` for the person the body names; a bad name or person is said, and changes nothing. */
  return async function act(name: string, body: Body): Promise<ActionResult> {
    if (name === 'tick') {
      await d.tick();
      return { ok: true, notice: 'The simulator ticked: jobs moved on, pipelines may have finished.' };
    }
    if (name === 'step') return step(body);
    const person = personOf(body);
    if (!person) return { ok: false, error: `Who? One of: ${Object.keys(d.people).join(', ')}.` };
    switch (name) {
      case 'compose':
        return compose(person, body);
      case 'click':
        return click(person, body);
      case 'submit':
        return submit(person, body);
      case 'close':
        d.modals.close(person.id);
        return { ok: true };
      case 'shortcut':
        return shortcut(person, body);
      case 'home':
        return answered(await d.slack.openHome(person));
      default:
        return { ok: false, error: `No such action: ${name}.` };
    }
  };
}
