import { z } from 'zod';
import { defineButtons } from '../ids.js';

// Buttons that belong to no one noun: connecting, links, declining a confirmation, list pages.

export const AccountButtons = defineButtons('account', {
  connect: z.object({}).strict(),
  /** Deletes the clicker's stored token (the Home tab's Disconnect). */
  disconnect: z.object({}).strict(),
});

export const LinkButtons = defineButtons('link', {
  /** A button that only opens a URL; Slack still reports the click, which needs no answer. */
  open: z.object({}).strict(),
});

export const NoopButtons = defineButtons('noop', {
  /** "Never mind" on a typed confirmation: removes the prompt. */
  dismiss: z.object({}).strict(),
});

export const ListButtons = defineButtons('list', {
  /** The next page of a list: its command text (re-parsed, so filters stay) and the page to show. */
  page: z.object({ q: z.string().min(1).max(1500), n: z.number().int().positive().max(10_000) }).strict(),
});
