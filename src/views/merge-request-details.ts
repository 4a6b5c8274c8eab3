import { onServer, type Project, projectPageUrl } from '../gitlab/project.js';
import type {
  ClosesIssue,
  Commit,
  Diff,
  MergeRequest,
  MergeRequestVersion,
  MergeRequestVersionDetail,
} from '../gitlab/schemas.js';
import { actions, type Block, context, message, type SlackMessage, section } from './blocks.js';
import { openButton, type TimeContext, when } from './common.js';
import type { Readers } from './format.js';
import { LIMITS, truncate } from './limits.js';
import { mergeRequestUrl, mrRef, stateBadge } from './merge-requests.js';
import { bold, code, escapeText, joinMd, linked, Md, md, type Text } from './mrkdwn.js';
import { shortSha } from './status.js';

// What a merge request is made of, compact: its changed files (the diff inline when it is small, else as a
// `.diff` file), its commits, its diff versions and the issues it closes. Long lists are packed several lines
// to a section and cut with "and N more", so no answer goes over Slack's limits however big the change.

/** Sections a list of lines may take in one message, leaving room for the title, notes and buttons. */
const LINE_SECTIONS = 20;
/** A section's text budget, with room for the cut marker. */
const SECTION_BUDGET = LIMITS.sectionText - 100;
/** A diff shown inline takes one code block; anything longer is uploaded. */
const INLINE_DIFF = LIMITS.sectionText - 10;
/** Uploaded diffs keep their first 5 MB. */
const DIFF_FILE_LIMIT = 5 * 1024 * 1024;

/** Lines packed into sections within Slack's limits; what does not fit is counted in `left`. */
export function packLines(lines: readonly Md[], maxSections = LINE_SECTIONS): { blocks: Block[]; left: number } {
  const blocks: Block[] = [];
  let current: string[] = [];
  let size = 0;
  let used = 0;
  for (const line of lines) {
    const text = truncate(line.text, SECTION_BUDGET);
    if (current.length > 0 && size + text.length + 1 > SECTION_BUDGET) {
      if (blocks.length + 1 >= maxSections) break;
      blocks.push(section(Md.trusted(current.join('\n'))));
      current = [];
      size = 0;
    }
    current.push(text);
    size += text.length + 1;
    used += 1;
  }
  if (current.length > 0) blocks.push(section(Md.trusted(current.join('\n'))));
  return { blocks, left: lines.length - used };
}

const more = (left: number, what: string, url: string | null): Block[] =>
  left > 0
    ? [context([md`…and ${left} more ${what}${url ? md` · ${linked(url, 'see them all in GitLab')}` : ''}.`])]
    : [];

/** Lines added and removed by one file's diff (its hunks; the `---`/`+++` header is not counted). */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed };
}

function fileLine(d: Diff): Md {
  const { added, removed } = diffStats(d.diff);
  const what = d.new_file
    ? ' (new)'
    : d.deleted_file
      ? ' (deleted)'
      : d.renamed_file
        ? md` (renamed from ${code(truncate(d.old_path, 200))})`
        : '';
  const size = d.too_large ? ' · too large to show' : ` · +${added} −${removed}`;
  return md`${code(truncate(d.new_path, 300))}${what}${size}`;
}

/** The changes as one unified diff, as `git diff` prints it. */
export function unifiedDiff(changes: readonly Diff[]): string {
  return changes
    .map((d) => {
      const from = d.new_file ? '/dev/null' : `a/${d.old_path}`;
      const to = d.deleted_file ? '/dev/null' : `b/${d.new_path}`;
      const header = d.diff.startsWith('--- ') ? '' : `--- ${from}\n+++ ${to}\n`;
      const body = d.too_large
        ? '(too large to show)\n'
        : d.diff.endsWith('\n') || d.diff === ''
          ? d.diff
          : `${d.diff}\n`;
      return `diff --git a/${d.old_path} b/${d.new_path}\n${header}${body}`;
    })
    .join('');
}

export interface DiffAnswer {
  message: SlackMessage;
  /** Set when the diff is too long for a message: the bot uploads it. */
  file: { filename: string; title: string; content: string } | null;
}

/**
 * Changed files with their additions and deletions; the diff itself inline when it fits one code block,
 * otherwise as a `.diff` file (`where` says where it is uploaded).
 */
export function buildDiffAnswer(
  changes: readonly Diff[],
  o: {
    title: string;
    /** The lines above the file list (what the diff is of). */
    head?: Block[];
    filename: string;
    url: string | null;
    where: 'in this channel' | 'in a direct message';
  },
): DiffAnswer {
  let added = 0;
  let removed = 0;
  for (const d of changes) {
    const s = diffStats(d.diff);
    added += s.added;
    removed += s.removed;
  }
  const files = `${changes.length} file${changes.length === 1 ? '' : 's'}`;
  const summary = `${o.title}: ${files}, +${added} −${removed}`;
  const blocks: Block[] = [
    section(md`:page_facing_up: ${bold(o.title)} · ${files}, +${added} −${removed}`),
    ...(o.head ?? []),
  ];
  if (changes.length === 0) {
    blocks.push(section('No changes.'));
    return { message: message(summary, blocks), file: null };
  }
  const listed = packLines(changes.map(fileLine), LINE_SECTIONS - (o.head?.length ?? 0));
  blocks.push(...listed.blocks, ...more(listed.left, 'files', o.url));
  const diff = unifiedDiff(changes);
  const inline = escapeText(diff).replace(/```/g, "'''");
  let file: DiffAnswer['file'] = null;
  if (inline.length + 6 <= INLINE_DIFF && listed.left === 0) {
    blocks.push(section(Md.trusted(`\`\`\`\n${inline}\`\`\``)));
  } else {
    const content = diff.length > DIFF_FILE_LIMIT ? diff.slice(0, DIFF_FILE_LIMIT) : diff;
    const lines = content.replace(/\n$/, '').split('\n').length;
    const cut = content === diff ? '' : ' (its first 5 MB)';
    file = { filename: o.filename, title: o.title, content };
    blocks.push(context([md`The whole diff (${lines} lines) is uploaded as ${code(o.filename)} ${o.where}${cut}.`]));
  }
  if (o.url) blocks.push(actions(openButton(o.url, 'Open in GitLab')));
  return { message: message(summary, blocks), file };
}

/** `demo-web-mr-2.diff`: a file name that says what it is. */
export function diffFilename(project: Project, iid: number, suffix = ''): string {
  const base = (project.path ?? `project-${project.key}`).replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${base}-mr-${iid}${suffix}.diff`;
}

function commitLine(serverUrl: string, project: Project, commit: Commit, at: TimeContext): Md {
  const url = projectPageUrl(serverUrl, project, `commit/${commit.id}`);
  return md`${linked(url, code(commit.short_id || shortSha(commit.id)))} ${truncate(commit.title, 120)} — ${commit.author_name}, ${when(commit.created_at, at)}`;
}

export function buildCommits(
  mr: Pick<MergeRequest, 'iid'>,
  project: Project,
  commits: readonly Commit[],
  options: Readers & { serverUrl: string; total: number | null },
): SlackMessage {
  const title = `Commits of ${mrRef(project, mr.iid)}`;
  const count = options.total ?? commits.length;
  const url = projectPageUrl(options.serverUrl, project, `merge_requests/${mr.iid}/commits`);
  const blocks: Block[] = [section(md`:memo: ${bold(title)} · ${count} commit${count === 1 ? '' : 's'}, newest first`)];
  if (commits.length === 0) blocks.push(section('No commits.'));
  const listed = packLines(commits.map((c) => commitLine(options.serverUrl, project, c, options)));
  blocks.push(...listed.blocks, ...more(listed.left + Math.max(0, count - commits.length), 'commits', url));
  return message(`${title}: ${count}`, blocks);
}

export function buildVersions(
  mr: Pick<MergeRequest, 'iid'>,
  project: Project,
  versions: readonly MergeRequestVersion[],
  options: Readers & { slashCommand: string },
): SlackMessage {
  const title = `Diff versions of ${mrRef(project, mr.iid)}`;
  const lines = versions.map(
    (v) =>
      md`${bold(`#${v.id}`)} · head ${code(shortSha(v.head_commit_sha))} on base ${code(shortSha(v.base_commit_sha))} · ${v.state}${v.real_size ? ` · ${v.real_size} file${v.real_size === '1' ? '' : 's'}` : ''} · ${when(v.created_at, options)}`,
  );
  const blocks: Block[] = [section(md`:card_index_dividers: ${bold(title)} · ${versions.length}, newest first`)];
  if (versions.length === 0) blocks.push(section('No diff versions.'));
  const listed = packLines(lines);
  blocks.push(...listed.blocks, ...more(listed.left, 'versions', null));
  const first = versions[0];
  if (first) {
    blocks.push(
      context([
        md`One version with its commits and diff: ${code(`${options.slashCommand} mr version ${mrRef(project, mr.iid)} ${first.id}`)}`,
      ]),
    );
  }
  return message(`${title}: ${versions.length}`, blocks);
}

/** One version: its commits, then its files and diff as `changes` shows them. */
export function buildVersion(
  mr: Pick<MergeRequest, 'iid'>,
  project: Project,
  version: MergeRequestVersionDetail,
  options: Readers & { serverUrl: string; where: 'in this channel' | 'in a direct message' },
): DiffAnswer {
  const shas = md`head ${code(shortSha(version.head_commit_sha))} · base ${code(shortSha(version.base_commit_sha))} · start ${code(shortSha(version.start_commit_sha))} · ${version.state} · ${when(version.created_at, options)}`;
  const shown = version.commits.slice(0, 10).map((c) => commitLine(options.serverUrl, project, c, options));
  const commits: Text[] = [
    md`*${version.commits.length} commit${version.commits.length === 1 ? '' : 's'}*${version.commits.length > 10 ? ' (the newest 10)' : ''}`,
    ...shown,
  ];
  return buildDiffAnswer(version.diffs, {
    title: `Version #${version.id} of ${mrRef(project, mr.iid)}`,
    head: [section(shas), section(joinMd(commits, '\n'))],
    filename: diffFilename(project, mr.iid, `-v${version.id}`),
    url: projectPageUrl(options.serverUrl, project, `merge_requests/${mr.iid}/diffs?diff_id=${version.id}`),
    where: options.where,
  });
}

export function buildCloses(
  mr: Pick<MergeRequest, 'iid' | 'web_url'>,
  project: Project,
  issues: readonly ClosesIssue[],
  options: { serverUrl: string },
): SlackMessage {
  const title = `Issues ${mrRef(project, mr.iid)} closes when merged`;
  const lines = issues.map((i) =>
    typeof i.id === 'string'
      ? md`${code(i.id)} ${truncate(i.title, 150)}`
      : 'iid' in i
        ? md`${stateBadge(i.state)} ${linked(onServer(options.serverUrl, i.web_url) ?? projectPageUrl(options.serverUrl, project, `issues/${i.iid}`), `#${i.iid}`)} ${truncate(i.title, 150)}`
        : md`${truncate(i.title, 150)}`,
  );
  const blocks: Block[] = [section(md`:link: ${bold(title)} · ${issues.length}`)];
  if (issues.length === 0) {
    blocks.push(
      section(md`Merging ${mrRef(project, mr.iid)} closes no issues (its description names none with “Closes #…”).`),
    );
  }
  const listed = packLines(lines);
  blocks.push(
    ...listed.blocks,
    ...more(listed.left, 'issues', mergeRequestUrl(options.serverUrl, project, { iid: mr.iid, web_url: mr.web_url })),
  );
  return message(`${title}: ${issues.length}`, blocks);
}
