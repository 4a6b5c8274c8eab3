import { describe, expect, it } from 'vitest';
import { onServer, pathOnServer, projectOf } from '../../../src/gitlab/project.js';
import { issueUrl, projectOfIssue } from '../../../src/views/issues.js';
import { jobUrl } from '../../../src/views/jobs.js';
import { mergeRequestUrl, projectOfMergeRequest } from '../../../src/views/merge-requests.js';
import { pipelineUrl } from '../../../src/views/pipelines.js';

// Every link the bot draws points at the configured server, whatever host the server wrote in a web_url: a server
// reached by an internal address writes that one, a hostile one any. The resource's path is kept, the host is ours.

const SERVER = 'https://gitlab.example.com';
const project = projectOf('demo/web');

describe('web addresses the server sent', () => {
  it('are drawn on the configured host, keeping their path, query and fragment', () => {
    expect(onServer(SERVER, 'https://evil.example/demo/web/issues/3#note_5')).toBe(
      `${SERVER}/demo/web/issues/3#note_5`,
    );
    expect(onServer(SERVER, 'http://10.0.0.7:8080//evil.example/x')).toBe(`${SERVER}/evil.example/x`);
    expect(onServer(SERVER, 'javascript:alert(1)')).toBeNull();
    expect(onServer(SERVER, 'not a url')).toBeNull();
    expect(onServer(SERVER, null)).toBeNull();
  });

  it('never give a link to another host, in any of the views that draw them', () => {
    const hostile = 'https://evil.example/demo/web/issues/3';
    for (const url of [
      issueUrl(SERVER, project, { iid: 3, web_url: hostile }),
      mergeRequestUrl(SERVER, project, { iid: 3, web_url: hostile }),
      jobUrl(SERVER, project, { id: 3, web_url: hostile }),
      pipelineUrl(SERVER, project, { id: 3, web_url: hostile }),
    ]) {
      expect(new URL(url ?? '').host).toBe('gitlab.example.com');
    }
  });

  it('label a project by the path in web_url whatever its host (an internal address, a server under /gitlab)', () => {
    expect(projectOfIssue({ project_id: 1, web_url: 'http://gitlab.internal:8080/demo/web/issues/6' }, SERVER)).toEqual(
      projectOf(1, 'demo/web'),
    );
    const mr = { project_id: 2, web_url: 'http://10.1.1.1/gitlab/grp/sub/app/merge_requests/4' };
    expect(projectOfMergeRequest(mr as never, 'https://code.example.com/gitlab')).toEqual(projectOf(2, 'grp/sub/app'));
    expect(pathOnServer(SERVER, 'https://other/x/y')).toBe('x/y');
  });
});
