/** A project as the person named it: a (sub)group path, or GitLab's numeric id. */
export type ProjectRef = { kind: 'path'; path: string } | { kind: 'id'; id: number };

/** A group for `--group`: the same two shapes as a project (a path may have one segment). */
export type GroupRef = ProjectRef;

/**
 * A person as named in a command: a server user id (`42`), a server username (`alice` or `@alice`), or a Slack
 * mention (`<@U0123ABC|alice>`), which the bot maps to a server user later.
 */
export type UserRef =
  | { kind: 'id'; id: number }
  | { kind: 'username'; username: string }
  | { kind: 'slack'; userId: string };

/** A time-tracking duration in GitLab's units (1mo = 4w, 1w = 5d, 1d = 8h). */
export type Duration = {
  /** Normalised human form, e.g. `3h 30m` or `-1h`. */
  text: string;
  seconds: number;
};

/**
 * What a command acts on. `project: null` means "relative to the channel default": the grammar does not know
 * channel defaults, the operations layer resolves them (or asks "which project?").
 */
export type Target =
  | { kind: 'none' }
  | { kind: 'project'; project: ProjectRef | null }
  | { kind: 'issue' | 'merge_request' | 'snippet'; project: ProjectRef | null; iid: number }
  | { kind: 'job' | 'pipeline' | 'schedule' | 'deployment'; project: ProjectRef | null; id: number };

export type UsageError = {
  /**
   * Set when the text held a word shaped like an access token: the message never repeats the text, says nothing
   * ran, and asks the person to revoke the token. Absent on an ordinary usage error.
   */
  kind?: 'secret';
  /** The whole Slack mrkdwn text to show (already escaped for Slack). */
  message: string;
  /** The canonical noun whose usage is shown, when one is known. */
  noun?: string;
  /** The known word closest to what was typed, when one is close. */
  suggestion?: string;
};

export type ParseOptions = {
  /**
   * The configured GITLAB_URL, e.g. `http://127.0.0.1:4000` or `https://gitlab.example.com/sub`; with
   * GITLAB_PUBLIC_URL set, both (the public one first): pasted links of either are read.
   */
  serverUrl: string | readonly string[];
  /** The slash command shown in usage messages (default `/gl`). */
  slashCommand?: string;
};

export type HelpText = {
  /** Plain text (no mrkdwn), fit for a header. */
  title: string;
  /** Slack mrkdwn sections, each at most 2900 characters. */
  sections: string[];
};
