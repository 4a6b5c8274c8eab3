import { afterAll, beforeAll, expect } from 'vitest';
import { type Demo, type DemoOptions, startDemo } from '../../src/console/demo.js';
import { type FakeClock, fakeClock } from './clock.js';

export interface DemoConsole {
  /** The demo, once the file's beforeAll has started it. */
  readonly demo: Demo;
  /** Answers the console's forms and confirmations will read, in order. */
  readonly answers: string[];
  /** The questions the console asked (forms' fields, confirm dialogs), in order. */
  readonly asked: readonly string[];
  readonly clock: FakeClock;
  /** Everything the console printed so far, lines and what came between them. */
  readonly output: readonly string[];
  /** Types one line into the console; what it printed for that line. */
  say(line: string): Promise<string>;
}

/**
 * The demo console for one test file (started before its tests, closed after), printing into memory. `digests` and
 * `session` as in startDemo (a test fires digests by hand with `digests: { timer: 'manual' }`).
 */
export function useDemoConsole(o: Pick<DemoOptions, 'digests' | 'follows' | 'session'> = {}): DemoConsole {
  // Slack's pace per channel is a real second between two posts; no test of the console is about it.
  const unpaced = { channelIntervalMs: 0 };
  let demo: Demo | undefined;
  const output: string[] = [];
  const answers: string[] = [];
  const asked: string[] = [];
  const clock = fakeClock();
  beforeAll(async () => {
    demo = await startDemo({
      write: (t) => output.push(t),
      ask: async (question) => {
        asked.push(question);
        return answers.shift() ?? null;
      },
      now: clock.now,
      ...o,
      digests: { ...unpaced, ...o.digests },
      follows: { ...unpaced, ...o.follows },
      watches: unpaced,
      alerts: unpaced,
      // A loaded machine may take seconds over a quick answer: no "working on it…" note in the console's tests.
      workingNoteMs: 600_000,
      // A loaded machine may take seconds to preview a link or answer a form; tests wait longer than people do.
      session: { mayNotAnswerMs: 10_000, ...o.session },
    });
  });
  afterAll(async () => {
    await demo?.close();
  });
  const started = (): Demo => {
    if (!demo) throw new Error('the demo console is not started yet');
    return demo;
  };
  return {
    get demo() {
      return started();
    },
    answers,
    asked,
    clock,
    output,
    async say(line) {
      const before = output.length;
      await started().session.handle(line);
      return output.slice(before).join('\n');
    },
  };
}

/** The number the console gave the button labelled `label` in `said`. */
export function numberOf(said: string, label: string): number {
  const m = new RegExp(`\\[(\\d+) ${label}[ \\]]`).exec(said);
  if (!m) expect.fail(`no button "${label}" in:\n${said}`);
  return Number(m[1]);
}
