import type { SlackMessage } from '../../views/blocks.js';
import type { Respond } from './respond.js';

// A command whose answer is not ready within a couple of seconds shows "working on it…" through its response_url,
// and the answer then takes that note's place (Slack's users expect a sign of life; a slow server otherwise
// showed nothing for 15 s). The note is one of the response_url's five uses, so whoever counts uses asks here.

export interface WorkingNoteTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: WorkingNoteTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface WorkingNote {
  /** What the note says, when the command can say better than "working on it" (set before it shows). */
  say(message: SlackMessage): void;
  /** No note after this (the answer is on its way); resolves once a note already sent has been posted. */
  settle(): Promise<void>;
  /** Whether the note was shown: the answer then replaces it. */
  readonly shown: boolean;
}

export function startWorkingNote(o: {
  respond: Respond;
  afterMs: number;
  text: string;
  timers?: WorkingNoteTimers;
}): WorkingNote {
  const timers = o.timers ?? realTimers;
  let shown = false;
  let note: SlackMessage = { text: o.text };
  let posting: Promise<void> = Promise.resolve();
  let handle: unknown = timers.setTimeout(() => {
    handle = null;
    shown = true;
    // A note that could not be posted is no reason to fail the command: the answer still comes.
    const body = note.blocks ? { text: note.text, blocks: note.blocks } : { text: note.text };
    posting = o.respond({ response_type: 'ephemeral', replace_original: false, ...body }).catch(() => {
      shown = false;
    });
  }, o.afterMs);
  return {
    say(message) {
      note = message;
    },
    settle() {
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
      return posting;
    },
    get shown() {
      return shown;
    },
  };
}
