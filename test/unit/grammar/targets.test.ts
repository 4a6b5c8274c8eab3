import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/grammar/index.js';
import { parseWebUrl } from '../../../src/grammar/references.js';
import { accepted, command, issue, mr, plain, problem, project, resource, SERVER, snippet } from './support.js';

const LOCAL = 'http://127.0.0.1:4000';

describe('pasted links of the configured server', () => {
  it.each([
    [`${SERVER}/group/sub/project/-/issues/12`, 'issue', 'group/sub/project', 12],
    [`${SERVER}/group/sub/project/issues/12`, 'issue', 'group/sub/project', 12],
    [`${SERVER}/demo/web/-/issues/12/`, 'issue', 'demo/web', 12],
    [`${SERVER}/demo/web/-/issues/12#note_345`, 'issue', 'demo/web', 12],
    [`${SERVER}/demo/web/-/merge_requests/34`, 'merge_request', 'demo/web', 34],
    [`${SERVER}/demo/web/merge_requests/34/diffs?view=inline`, 'merge_request', 'demo/web', 34],
    [`${SERVER}/demo/web/-/jobs/123`, 'job', 'demo/web', 123],
    [`${SERVER}/demo/web/-/jobs/123/raw`, 'job', 'demo/web', 123],
    [`${SERVER}/demo/web/builds/123`, 'job', 'demo/web', 123],
    [`${SERVER}/demo/web/-/pipelines/55`, 'pipeline', 'demo/web', 55],
    [`${SERVER}/demo/web/pipeline_schedules/7/edit`, 'schedule', 'demo/web', 7],
    [`${SERVER}/demo/web/snippets/5`, 'snippet', 'demo/web', 5],
    [`http://gitlab.example.com/sub/demo/web/-/issues/1`, 'issue', 'demo/web', 1],
    [`https://GitLab.Example.com/sub/demo/web/-/issues/1`, 'issue', 'demo/web', 1],
    [`${SERVER}/my%2Dgroup/web/-/issues/2`, 'issue', 'my-group/web', 2],
    [`${SERVER}/demo/issues/issues/3`, 'issue', 'demo/issues', 3],
  ])('reads %s', (url, kind, path, id) => {
    expect(parseWebUrl(url, SERVER)).toEqual({ ok: true, value: { kind, project: { kind: 'path', path }, id } });
  });

  it('reads a project page as the project', () => {
    expect(parseWebUrl(`${SERVER}/demo/web/`, SERVER)).toEqual({
      ok: true,
      value: { kind: 'project', project: { kind: 'path', path: 'demo/web' } },
    });
  });

  it('works with a server on a port without a path prefix', () => {
    expect(parseWebUrl(`${LOCAL}/demo/web/-/jobs/9`, LOCAL)).toEqual({
      ok: true,
      value: { kind: 'job', project: { kind: 'path', path: 'demo/web' }, id: 9 },
    });
    expect(parseWebUrl(`${LOCAL}/demo/web/-/jobs/9`, `${LOCAL}/`)).toMatchObject({ ok: true });
  });

  it('reads links of either configured address, the public one named when refusing', () => {
    const both = ['https://git.example.org', LOCAL];
    const job = { ok: true, value: { kind: 'job', project: { kind: 'path', path: 'demo/web' }, id: 9 } };
    expect(parseWebUrl('https://git.example.org/demo/web/-/jobs/9', both)).toEqual(job);
    expect(parseWebUrl(`${LOCAL}/demo/web/-/jobs/9`, both)).toEqual(job);
    expect(parseWebUrl('https://gitlab.com/demo/web/-/jobs/9', both)).toEqual({
      ok: false,
      problem: 'points to `gitlab.com`, but I only work with `git.example.org`: paste a link from there',
    });
  });

  it('refuses another host, naming the configured one', () => {
    expect(parseWebUrl('https://gitlab.com/demo/web/-/issues/1', SERVER)).toEqual({
      ok: false,
      problem: 'points to `gitlab.com`, but I only work with `gitlab.example.com/sub`: paste a link from there',
    });
    expect(parseWebUrl('http://127.0.0.1:4001/demo/web/-/jobs/1', LOCAL)).toEqual({
      ok: false,
      problem: 'points to `127.0.0.1:4001`, but I only work with `127.0.0.1:4000`: paste a link from there',
    });
  });

  it('refuses a link outside the server path prefix', () => {
    expect(parseWebUrl('https://gitlab.example.com/other/demo/web/-/issues/1', SERVER)).toEqual({
      ok: false,
      problem: 'is not under `gitlab.example.com/sub`',
    });
  });

  it('refuses pages that are not a resource the bot knows', () => {
    expect(parseWebUrl(`${SERVER}/demo/web/-/wikis/home`, SERVER)).toEqual({
      ok: false,
      problem: 'is not the page of an issue, merge request, snippet, job, pipeline or schedule',
    });
    expect(parseWebUrl(`${SERVER}/demo`, SERVER)).toEqual({ ok: false, problem: 'does not lead to a project' });
    expect(parseWebUrl(`${SERVER}/demo/%E0%A4%A/-/issues/1`, SERVER)).toEqual({
      ok: false,
      problem: 'is not a link I can read',
    });
  });

  it('refuses a link of the wrong kind for the command', () => {
    expect(problem(`pipeline ${SERVER}/demo/web/-/jobs/1`)).toBe(
      '`https://gitlab.example.com/sub/demo/web…` is a job, not a pipeline.',
    );
    expect(problem(`awards ${SERVER}/demo/web/-/jobs/1`)).toBe(
      '`https://gitlab.example.com/sub/demo/web…` is a job; emoji go on issues, merge requests and snippets.',
    );
  });

  it('shows the resource of a link given with no noun at all', () => {
    expect(accepted(`${SERVER}/demo/web/-/merge_requests/34`)).toEqual(command('mr.show', mr(34, 'demo/web')));
    expect(accepted(`<${SERVER}/demo/web/-/pipelines/55|pipeline 55> --share`)).toEqual(
      command('pipeline.show', resource('pipeline', 55, 'demo/web'), { share: true }),
    );
    expect(problem('https://gitlab.com/demo/web/-/issues/1')).toBe(
      '`https://gitlab.com/demo/web/-/issues/1` points to `gitlab.com`, but I only work with `gitlab.example.com/sub`: paste a link from there.',
    );
  });

  it('reads a project link where a project goes', () => {
    expect(accepted(`jobs ${SERVER}/demo/web`)).toEqual(command('job.list', project('demo/web')));
    expect(accepted(`issue move #3 ${SERVER}/demo/secret`)).toEqual(
      command('issue.move', issue(3), { args: { toProject: { kind: 'path', path: 'demo/secret' } } }),
    );
  });

  it('uses the server given in the options', () => {
    const result = parseCommand(`job ${LOCAL}/demo/web/-/jobs/9`, { serverUrl: LOCAL });
    expect(result).toEqual({ ok: true, command: command('job.show', resource('job', 9, 'demo/web')) });
    const other = parseCommand(`job ${SERVER}/demo/web/-/jobs/9`, { serverUrl: LOCAL });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(plain(other.error.message)).toContain('but I only work with `127.0.0.1:4000`');
  });
});

describe('references without a link', () => {
  it('reads project paths with subgroups, numeric ids and the three sigils', () => {
    expect(accepted('issue group/sub/project#12')).toEqual(command('issue.show', issue(12, 'group/sub/project')));
    expect(accepted('mr 42!34')).toEqual(command('mr.show', mr(34, 42)));
    expect(accepted('awards demo/web$5')).toEqual(command('award.list', snippet(5, 'demo/web')));
  });

  it('reads #12, !34, $5 and bare ids as relative to the channel default (project null)', () => {
    expect(accepted('issue #12').target).toEqual(issue(12));
    expect(accepted('mr !34').target).toEqual(mr(34));
    expect(accepted('awards $5').target).toEqual(snippet(5));
    expect(accepted('job 123').target).toEqual(resource('job', 123));
    expect(accepted('pipeline 55').target).toEqual(resource('pipeline', 55));
    expect(accepted('schedule 7').target).toEqual(resource('schedule', 7));
    expect(accepted('deployment 1').target).toEqual(resource('deployment', 1));
    expect(accepted('jobs').target).toEqual(project());
  });

  it('reads group/project 123 after job, pipeline, schedule and deployment', () => {
    expect(accepted('job demo/web 123').target).toEqual(resource('job', 123, 'demo/web'));
    expect(accepted('pipeline retry demo/web 55').target).toEqual(resource('pipeline', 55, 'demo/web'));
    expect(accepted('schedule take group/sub/project 7').target).toEqual(resource('schedule', 7, 'group/sub/project'));
    expect(accepted('deployment 42 1').target).toEqual(resource('deployment', 1, 42));
  });

  it('reads a number after a plural noun as a project id', () => {
    expect(accepted('jobs 42').target).toEqual(project(42));
    expect(accepted('mrs 42').target).toEqual(project(42));
  });

  it('takes an optional leading project only when enough words remain for the arguments', () => {
    expect(accepted('pipeline run feature/x').target).toEqual(project());
    expect(accepted('pipeline run demo/web feature/x').target).toEqual(project('demo/web'));
    expect(accepted('mr create feature/x main "T"').target).toEqual(project());
  });

  it('refuses a path that is not a project', () => {
    expect(problem('jobs demo/')).toBe('`demo/` is not a project: give `group/project` or its numeric id.');
    expect(problem('jobs -demo/web')).toBe('`-demo/web` is not a project: give `group/project` or its numeric id.');
  });
});
