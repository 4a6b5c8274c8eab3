import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../../../src/console/demo.js';
import { parseCommand } from '../../../src/grammar/index.js';
import { NOUNS } from '../../../src/nouns/index.js';
import { fakeClock } from '../../support/clock.js';

// Every command the bot carries out, typed into the demo console with real demo ids.
// Confirmation prompts are answered by pressing their "Yes, …" button (YES below): button
// numbers run on through the session, so its number is read from what the prompt showed.
const YES = '(press the Yes button of the last answer)';
// A card's Merge button opens a form; the line after it answers the form's one question.
const MERGE = '(press the Merge button of the last answer)';
const SCRIPT = [
  'help',
  'help jobs',
  'whoami',
  'use demo/web',
  'jobs --scope failed',
  'jobs demo/web --scope failed --scope manual',
  'jobs demo/web --pipeline 2',
  'job demo/web 8',
  'job trace demo/web 8 --lines 10',
  'job trace demo/web 8 --full',
  'job artifacts demo/web 1',
  'job artifacts demo/web --ref main --job compile',
  'job retry demo/web 8',
  'job play demo/web 13',
  'job keep demo/web 1',
  'job cancel demo/web 22',
  YES,
  'job erase demo/web 7',
  YES,
  'insights demo/web --days 30 --share',
  'pipelines demo/web --status failed',
  'pipeline demo/web 2',
  'pipeline run demo/web main',
  'pipeline retry demo/web 2',
  'pipeline cancel demo/web 9',
  YES,
  'schedules demo/web --scope active',
  'schedule demo/web 1',
  'schedule create demo/web "Nightly docs" main "0 3 * * *" --tz Europe/Berlin',
  'schedule edit demo/web 1 --cron "0 4 * * *"',
  'schedule deactivate demo/web 1',
  'schedule activate demo/web 1',
  'schedule take demo/web 2',
  YES,
  'schedule delete demo/web 3',
  YES,
  'deployments demo/web',
  'deployment demo/web 1',
  'awards demo/web#4',
  'awards demo/web!4 --note 303',
  'award demo/web#4 :rocket:',
  'award show demo/web#4 1',
  'unaward demo/web!2 8',
  'todos --type MergeRequest',
  'todo done 1',
  'todos done',
  'events demo/web --action pushed',
  'events --user bob',
  'events',
  'as root',
  'key 1',
  'as alice',
  'issues',
  'issues --group demo --labels none',
  'issues demo/web --state opened --labels bug --per-page 5',
  'issue #4',
  'issue demo/web#4 --share',
  'issue create demo/web "Login fails on Safari" --labels bug --assignees bob',
  'issue create demo/web',
  'Search is slow',
  'Takes 4 s for "mug".',
  'performance, backend',
  'bob',
  '2026-04-01',
  'no',
  'issue edit demo/web#6 --labels ux --assignees bob',
  'issue close demo/web#2',
  'issue reopen demo/web#2',
  'issue subscribe demo/web#9',
  'issue unsubscribe demo/web#9',
  'issue todo demo/web#9',
  'issue estimate demo/web#4 3h30m',
  'issue spend demo/web#4 1h',
  'issue time demo/web#4',
  'issue reset-estimate demo/web#4',
  'issue reset-spent demo/web#4',
  'issue closed-by demo/web#2',
  'issue move demo/web#5 demo/docs',
  'issue delete demo/web#10',
  YES,
  'as root',
  'issue agent demo/web#2',
  'as alice',
  'mrs demo/web --state opened',
  'mrs --scope assigned-to-me --state opened',
  'mr demo/web!2',
  'mr commits demo/web!2',
  'mr changes demo/web!2',
  'mr versions demo/web!2',
  'mr version demo/web!2 4',
  'mr closes demo/web!2',
  'mr create demo/web feature/i18n-de main "Add German translations" --assignee alice --remove-source-branch',
  'mr edit demo/web!8 --labels i18n --description "German strings for the shop"',
  'mr subscribe demo/web!6',
  'mr unsubscribe demo/web!6',
  'mr todo demo/web!6',
  'mr estimate demo/web!3 2d',
  'mr spend demo/web!3 1h30m',
  'mr time demo/web!3',
  'mr reset-estimate demo/web!3',
  'mr reset-spent demo/web!3',
  'mr cancel-auto-merge demo/web!2',
  'mr merge demo/web!2 --when-pipeline-succeeds',
  YES,
  'mr demo/web!7',
  MERGE,
  'y',
  'mr merge demo/web!3 --remove-source-branch --message "Round each cart line"',
  YES,
  'mr close demo/web!8',
  'mr reopen demo/web!8',
  'mr delete demo/web!5',
  'digest events --cron "0 9 * * 1-5" --tz Europe/Berlin',
  'digest events --user bob --action pushed',
  'digest todos',
  'digest todos --here --cron "30 8 * * *"',
  'digest insights demo/web',
  'digests',
  'digest run 4',
  'digest run 5',
  'digest edit 1 --cron "0 8 * * 1-5"',
  'digest pause 1',
  'digest resume 1',
  'digest remove 2',
  YES,
  'watch pipelines --ref main --status finished',
  'watches',
  'watch pause 1',
  'watch resume 1',
  'watch remove 1',
  YES,
  'unfurl private on',
  'unfurl private off',
  'notify on --actions assigned,mentioned --quiet 19:00-08:00',
  'notify',
  'notify off',
  'home',
  'use --clear',
  'disconnect',
  'connect',
  'sim-alice-token',
];

// What a person must never read: internal failures, unrendered values, a command the bot did not carry out.
const NOT_A_COMMANDS_OWN_MESSAGE =
  /Something went wrong|reference `|console error|\(no answer\)|not available in this version|answered HTTP|\bundefined\b|\bNaN\b|\[object Object\]|\n\s+at .+:\d+:\d+|ECONNREFUSED|not found, or you have no access|cannot be (played|retried|canceled|erased)|refused|unavailable|out of date|Which project/;

let demo: Demo;
const output: string[] = [];
const queue = [...SCRIPT];

beforeAll(async () => {
  demo = await startDemo({
    write: (t) => output.push(t),
    ask: async () => queue.shift() ?? null,
    now: fakeClock().now,
  });
});
afterAll(async () => {
  await demo?.close();
});

describe('the demo console', () => {
  it('carries out every implemented command of COMMANDS.md without an error that is not the command’s own', async () => {
    const turns: { line: string; said: string }[] = [];
    while (queue.length > 0) {
      let line = queue.shift() as string;
      if (line === YES) {
        const yes = /\[(\d+) Yes, /.exec(turns.at(-1)?.said ?? '');
        expect(yes, `a Yes button after "${turns.at(-1)?.line}"`).not.toBeNull();
        line = yes?.[1] ?? '';
      }
      if (line === MERGE) {
        const merge = /\[(\d+) Merge\]/.exec(turns.at(-1)?.said ?? '');
        expect(merge, `a Merge button after "${turns.at(-1)?.line}"`).not.toBeNull();
        line = merge?.[1] ?? '';
      }
      const before = output.length;
      await demo.session.handle(line);
      turns.push({ line, said: output.slice(before).join('\n') });
    }
    for (const t of turns) {
      expect.soft(t.said, `after "${t.line}"`).not.toMatch(NOT_A_COMMANDS_OWN_MESSAGE);
      expect.soft(t.said.trim().length, `after "${t.line}"`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('has a script that covers every command the bot has a handler for', () => {
    const covered = new Set<string>();
    for (const line of SCRIPT) {
      const parsed = parseCommand(line, { serverUrl: demo.simUrl });
      if (parsed.ok) covered.add(parsed.command.key);
    }
    const implemented = NOUNS.flatMap((n) => n.commandKeys).sort();
    expect(implemented.filter((k) => !covered.has(k))).toEqual([]);
  });
});
