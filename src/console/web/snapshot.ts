import { STEPS } from '../../steps/definitions.js';
import type { FakeMessage, FakeSlack } from '../fake-slack.js';
import type { SlackPerson } from '../payloads.js';
import type { ModalStacks } from './modals.js';

// What one person sees of the fake Slack, as the page draws it: the channels and their DM with the app, the
// messages they may see (ephemeral ones only their own), their Home tab, the modal they have open, and the
// workflow steps run so far. The page asks for it again whenever the fake Slack changes.

export interface PageChannel {
  id: string;
  name: string;
  kind: 'channel' | 'dm';
}

export interface PageMessage {
  key: string;
  channel: string;
  ts: string;
  version: number;
  text: string;
  blocks?: unknown[];
  ephemeral: boolean;
  /** The person who wrote it, or null for the app's own messages. */
  author: string | null;
  threadTs?: string;
  files: { id: string; name: string; image: boolean; altText?: string }[];
  unfurls: { url: string; unfurl: Record<string, unknown> }[];
}

export interface PageState {
  me: SlackPerson;
  people: SlackPerson[];
  channels: PageChannel[];
  messages: PageMessage[];
  home: Record<string, unknown> | null;
  modal: Record<string, unknown> | null;
  steps: { id: string; title: string; inputs: Record<string, unknown>; ended: unknown }[];
  stepIds: { id: string; title: string }[];
  seq: number;
}

const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;

function pageMessage(m: FakeMessage, people: readonly SlackPerson[]): PageMessage {
  return {
    key: m.key,
    channel: m.channel,
    ts: m.ts,
    version: m.version,
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ephemeral: m.ephemeral,
    author: m.user ? (people.find((p) => p.id === m.user)?.name ?? m.user) : null,
    ...(m.threadTs && m.threadTs !== m.ts ? { threadTs: m.threadTs } : {}),
    files: (m.files ?? []).map((f) => ({
      id: f.id,
      name: f.name,
      image: IMAGE.test(f.name),
      ...(f.altText ? { altText: f.altText } : {}),
    })),
    unfurls: Object.entries(m.unfurls ?? {}).map(([url, unfurl]) => ({ url, unfurl })),
  };
}

export function snapshot(
  fake: FakeSlack,
  o: { me: SlackPerson; people: readonly SlackPerson[]; channels: readonly PageChannel[]; modals: ModalStacks },
): PageState {
  const dm = fake.dmFor(o.me.id);
  const channels: PageChannel[] = [...o.channels, { id: dm, name: 'GitLab', kind: 'dm' }];
  const shown = new Set(channels.map((c) => c.id));
  const messages = [...fake.messages.values()]
    .filter((m) => shown.has(m.channel) && !m.deleted && (!m.ephemeral || m.visibleTo === o.me.id))
    .map((m) => pageMessage(m, o.people));
  const published = fake.records.findLast(
    (r) => r.method === 'views.publish' && r.ok && !!r.view && r.body.user_id === o.me.id,
  );
  return {
    me: o.me,
    people: [...o.people],
    channels,
    messages,
    home: published?.view ?? null,
    modal: o.modals.stackOf(o.me.id).at(-1) ?? null,
    steps: [...fake.functionExecutions.values()].map((e) => ({
      id: e.id,
      title: Object.values(STEPS).find((s) => s.id === e.callbackId)?.title ?? e.callbackId,
      inputs: e.inputs,
      ended: e.ended,
    })),
    stepIds: Object.values(STEPS).map((s) => ({ id: s.id, title: s.title })),
    seq: fake.lastSeq,
  };
}
