import type { Button } from '@slack/types';
import { DigestButtons, type DigestSurface } from '../buttons/digests.js';
import type { Refusal } from '../errors.js';
import type { Digest } from '../store/digest-store.js';
import { button, type Confirmation } from './blocks.js';
import { esc, Md, md, mention } from './mrkdwn.js';

// What a digest is, as every digest view names it: its subject, filters, where it posts, its title and buttons.
// The views themselves are in digest-cards.ts (its card, the list, what a run did), digest-notices.ts (what the
// bot says when it pauses one) and digest-posts.ts (the posted digest).

// ── what a digest is ──────────────────────────────────────────────────────────────────────────────────────────

/** "events of demo/web", "@bob's events", "pending todos". */
export function digestSubject(d: Digest): string {
  switch (d.kind) {
    case 'project_events':
      return `events of ${d.project?.path ?? 'a project'}`;
    case 'user_events':
      return `@${d.user?.username ?? 'someone'}'s events`;
    case 'todos':
      return 'pending todos';
    case 'insights':
      return `weekly insights of ${d.project?.path ?? 'a project'}`;
  }
}

export function digestFilters(d: Digest): string {
  return [
    d.action ? `--action ${d.action}` : '',
    d.targetType ? `--target-type ${d.targetType}` : '',
    d.environment ? `--env ${d.environment}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export const channelRef = (id: string): Md => (/^[CGD][A-Z0-9]+$/.test(id) ? Md.trusted(`<#${id}>`) : esc(id));

export function destination(d: Digest): Md {
  return d.inDm ? md`${mention(d.ownerId)}'s DM` : channelRef(d.channelId);
}

export function removeConfirmation(d: Digest): Confirmation {
  return {
    title: 'Remove this digest?',
    question: md`Remove digest #${d.id} (${digestSubject(d)} in ${destination(d)})? It stops posting and its place in the feed is forgotten.`,
    confirm: 'Remove',
    yes: `Yes, remove digest #${d.id}`,
  };
}

/** Pause or Resume, Run now, Remove; `where` tells the handler what to redraw. */
export function digestButtons(d: Digest, where: DigestSurface, slot?: number): Button[] {
  const v = { d: d.id, w: where };
  return [
    d.active
      ? button({ text: 'Pause', def: DigestButtons.pause, value: v, slot })
      : button({ text: 'Resume', def: DigestButtons.resume, value: v, style: 'primary', slot }),
    button({ text: 'Run now', def: DigestButtons.run, value: v, slot }),
    button({
      text: 'Remove',
      def: DigestButtons.remove,
      value: v,
      style: 'danger',
      confirm: removeConfirmation(d),
      slot,
    }),
  ];
}

export function digestTitle(d: Digest): string {
  switch (d.kind) {
    case 'project_events':
      return `:newspaper: ${d.project?.path ?? 'Project'}: what happened`;
    case 'user_events':
      return `:newspaper: @${d.user?.username ?? 'someone'}: what they did`;
    case 'todos':
      return ':ballot_box_with_check: Pending todos';
    case 'insights':
      return `:bar_chart: ${d.project?.path ?? 'Project'}: the week's insights`;
  }
}

// ── refusals ──────────────────────────────────────────────────────────────────────────────────────────────────

export function digestRefusal(r: Refusal, label: string): Md | null {
  switch (r.reason) {
    case 'not_owner':
      return md`${label}: only its owner or a workspace admin may ${r.action} it.`;
    case 'elsewhere':
      return md`${label} posts in another channel: run it from there.`;
    case 'not_yours':
      return md`These are someone else's todos: only they can mark them done.`;
    case 'gone':
      return md`${label} no longer exists.`;
    default:
      return null;
  }
}
