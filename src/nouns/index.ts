import { account } from './account.js';
import { alerts } from './alerts.js';
import { awards } from './awards.js';
import { deployments } from './deployments.js';
import { digests } from './digests.js';
import { events } from './events.js';
import { home } from './home.js';
import { insights } from './insights.js';
import { issues } from './issues.js';
import { jobs } from './jobs.js';
import { keys } from './keys.js';
import { links } from './links.js';
import { mergeRequests } from './merge-requests.js';
import { pipelines } from './pipelines.js';
import { schedules } from './schedules.js';
import { steps } from './steps.js';
import { todos } from './todos.js';
import type { Noun } from './types.js';
import { watches } from './watches.js';

/** Every noun the bot carries out. Adding a noun is its own files and one line here. */
export const NOUNS: readonly Noun[] = [
  account,
  jobs,
  pipelines,
  schedules,
  deployments,
  insights,
  issues,
  awards,
  todos,
  events,
  keys,
  mergeRequests,
  digests,
  watches,
  alerts,
  home,
  links,
  steps,
];
