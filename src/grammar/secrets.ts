/**
 * Words that look like access tokens. A person who pastes a token into a command must never see it echoed back
 * (messages quote the words they could not read), and the command must not run with it as a value.
 */

/** GitLab's token prefixes (personal, OAuth, deploy, runner, CI job, trigger, feed, incoming mail, agent, SCIM …). */
const GITLAB_PREFIXES = [
  'glpat',
  'gloas',
  'gldt',
  'glrt',
  'glrtr',
  'glptt',
  'glft',
  'glimt',
  'glagent',
  'glcbt',
  'glsoat',
  'glffct',
];

/** A prefix starts a word or follows an instance prefix's dash (`ACME-glpat-…`); newer tokens carry dots. */
const GITLAB_TOKEN = new RegExp(
  `(?<![A-Za-z0-9])(?:(?:${GITLAB_PREFIXES.join('|')})-|GR1348941)[A-Za-z0-9_][A-Za-z0-9_.-]*`,
  'i',
);
const SLACK_TOKEN = /(?<![A-Za-z0-9])(?:xox[abeoprs]|xapp)-[A-Za-z0-9][A-Za-z0-9-]*/i;
/** Unprefixed tokens (older GitLab ones among them) are 20 or more of these characters. */
const LONG_RUN = /[A-Za-z0-9_-]{20,}/g;
const HEX = /^[0-9A-Fa-f-]+$/;
/** A run split into words: `HTTP`, `Server`, `login`, `2026`. */
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;

export type TokenShape = {
  /** Which family it looks like: GitLab and Slack tokens have their own prefixes. */
  kind: 'gitlab' | 'slack' | 'generic';
  /** The word itself, so a caller can redact it. Never show it. */
  word: string;
};

/**
 * Whether a long run reads as words rather than random characters: `Release-2026-Q1-Hotfix-Login`,
 * `BuildAndTestLinux2024`, `update-to-Node20`. Every part with lower-case letters is a word of three or more letters,
 * a capitalised two-letter one (`My`), a short word between dashes (`to`) or a version (`v2`); and the parts are
 * long on average. Random tokens almost never pass (fewer than 1 in 1,000 of 20 characters).
 */
function readsAsWords(run: string): boolean {
  let parts = 0;
  let letters = 0;
  for (const segment of run.split(/[-_]+/)) {
    if (segment === '') continue;
    const humps = segment.match(HUMP) ?? [];
    parts += humps.length;
    letters += segment.length;
    for (let i = 0; i < humps.length; i++) {
      const hump = humps[i] ?? '';
      if (!/[a-z]/.test(hump) || hump.length >= 3 || humps.length === 1 || /^[A-Z][a-z]$/.test(hump)) continue;
      const version = i === 0 && /^[a-z]{1,2}$/.test(hump) && /^\d/.test(humps[1] ?? '');
      if (!version) return false;
    }
  }
  return letters >= 3.5 * parts;
}

/** A run of 20+ token characters mixing upper case, lower case and digits, not hex and not made of words. */
function looksRandom(run: string): boolean {
  return /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run) && !HEX.test(run) && !readsAsWords(run);
}

/**
 * The first word of `text` shaped like an access token: a GitLab token prefix (`glpat-`, `gldt-`, `glrt-` …), a
 * Slack token (`xoxb-`, `xapp-` …), or a long random-looking run of letters and digits. Commit SHAs, branch names,
 * dates and ordinary words are not.
 */
export function findTokenShapedWord(text: string): TokenShape | undefined {
  const gitlab = GITLAB_TOKEN.exec(text);
  if (gitlab) return { kind: 'gitlab', word: gitlab[0] };
  const slack = SLACK_TOKEN.exec(text);
  if (slack) return { kind: 'slack', word: slack[0] };
  for (const match of text.matchAll(LONG_RUN)) {
    if (looksRandom(match[0])) return { kind: 'generic', word: match[0] };
  }
  return undefined;
}
