import type { Readable } from 'node:stream';
import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import { type Job, JobSchema } from './schemas.js';

export type JobScope = 'created' | 'pending' | 'running' | 'failed' | 'success' | 'canceled' | 'skipped' | 'manual';

export interface JobListOptions extends PageOptions {
  /** Sent as `scope[]`, one per value. */
  scope?: JobScope | readonly JobScope[];
}

/** An artifacts download: the headers are known at once; the caller reads or destroys `stream`. */
export interface Artifacts {
  fileName: string | null;
  size: number | null;
  contentType: string | null;
  stream: Readable;
}

export interface JobsApi {
  list(project: ProjectRef, options?: JobListOptions): Promise<Page<Job>>;
  listForPipeline(project: ProjectRef, pipelineId: number, options?: JobListOptions): Promise<Page<Job>>;
  get(project: ProjectRef, jobId: number): Promise<Job>;
  cancel(project: ProjectRef, jobId: number): Promise<Job>;
  retry(project: ProjectRef, jobId: number): Promise<Job>;
  play(project: ProjectRef, jobId: number): Promise<Job>;
  erase(project: ProjectRef, jobId: number): Promise<Job>;
  keepArtifacts(project: ProjectRef, jobId: number): Promise<Job>;
  /** The raw trace (log) as text. */
  trace(project: ProjectRef, jobId: number): Promise<string>;
  /**
   * The end of the trace, at most `maxBytes` of it: the body is read as it streams and only its last bytes are
   * kept, so a trace of any size costs that much memory. `cut` says the start was left out.
   */
  traceTail(project: ProjectRef, jobId: number, maxBytes: number): Promise<TraceTail>;
  /** Whether the job still has a trace (an erased job has none); reads no more than the first bytes. */
  hasTrace(project: ProjectRef, jobId: number): Promise<boolean>;
  artifacts(project: ProjectRef, jobId: number): Promise<Artifacts>;
  /** Artifacts of the latest successful job named `jobName` on `ref`. */
  artifactsByRef(project: ProjectRef, ref: string, jobName: string): Promise<Artifacts>;
}

export interface TraceTail {
  text: string;
  cut: boolean;
}

/** Keeps the last `maxBytes` of a stream; the text starts at the first whole line when something was cut. */
export function readTail(stream: Readable, maxBytes: number): Promise<TraceTail> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let cut = false;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      kept += chunk.length;
      while (kept - (chunks[0]?.length ?? 0) >= maxBytes) {
        kept -= (chunks.shift() as Buffer).length;
        cut = true;
      }
    });
    stream.once('error', reject);
    stream.once('end', () => {
      let bytes = Buffer.concat(chunks, kept);
      if (bytes.length > maxBytes) {
        bytes = bytes.subarray(bytes.length - maxBytes);
        cut = true;
      }
      const text = bytes.toString('utf8');
      // A cut start may fall inside a line (or a character): the text begins after the first newline.
      resolve({ text: cut ? text.slice(text.indexOf('\n') + 1) : text, cut });
    });
  });
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `attachment; filename="a.zip"; filename*=UTF-8''a.zip` → `a.zip` (the RFC 5987 form wins). */
export function fileNameOf(contentDisposition: string | undefined): string | null {
  if (!contentDisposition) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(contentDisposition);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(contentDisposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? name : null;
}

function scopeParam(scope: JobListOptions['scope']): readonly string[] | undefined {
  if (scope === undefined) return undefined;
  return typeof scope === 'string' ? [scope] : scope;
}

export function createJobsApi(transport: Transport, token: string): JobsApi {
  const call = createCaller(transport, token);
  const base = (project: ProjectRef) => `projects/${encodeProject(project)}`;
  const job = (project: ProjectRef, jobId: number) => `${base(project)}/jobs/${encodeSegment(jobId)}`;
  const listQuery = (options: JobListOptions = {}) => ({
    scope: scopeParam(options.scope),
    page: options.page,
    per_page: options.per_page,
  });

  const download = async (path: string, query?: { job: string }): Promise<Artifacts> => {
    const { headers, stream } = await call.stream(path, query);
    const length = first(headers['content-length']);
    const size = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
    return {
      fileName: fileNameOf(first(headers['content-disposition'])),
      size,
      contentType: first(headers['content-type']) ?? null,
      stream,
    };
  };

  return {
    list: (project, options) => call.list(`${base(project)}/jobs`, JobSchema, listQuery(options)),
    listForPipeline: (project, pipelineId, options) =>
      call.list(`${base(project)}/pipelines/${encodeSegment(pipelineId)}/jobs`, JobSchema, listQuery(options)),
    get: (project, jobId) => call.get(job(project, jobId), JobSchema),
    cancel: (project, jobId) => call.send('POST', `${job(project, jobId)}/cancel`, JobSchema),
    retry: (project, jobId) => call.send('POST', `${job(project, jobId)}/retry`, JobSchema),
    play: (project, jobId) => call.send('POST', `${job(project, jobId)}/play`, JobSchema),
    erase: (project, jobId) => call.send('POST', `${job(project, jobId)}/erase`, JobSchema),
    keepArtifacts: (project, jobId) => call.send('POST', `${job(project, jobId)}/artifacts/keep`, JobSchema),
    trace: (project, jobId) => call.text(`${job(project, jobId)}/trace`),
    async traceTail(project, jobId, maxBytes) {
      const { stream } = await call.stream(`${job(project, jobId)}/trace`);
      return readTail(stream, maxBytes);
    },
    async hasTrace(project, jobId) {
      const { headers, stream } = await call.stream(`${job(project, jobId)}/trace`);
      const length = first(headers['content-length']);
      if (length !== undefined && /^\d+$/.test(length)) {
        stream.destroy();
        return Number(length) > 0;
      }
      return new Promise<boolean>((resolve) => {
        stream.once('data', () => {
          stream.destroy();
          resolve(true);
        });
        stream.once('end', () => resolve(false));
        stream.once('error', () => resolve(false));
      });
    },
    artifacts: (project, jobId) => download(`${job(project, jobId)}/artifacts`),
    artifactsByRef: (project, ref, jobName) =>
      download(`${base(project)}/jobs/artifacts/${encodeSegment(ref)}/download`, { job: jobName }),
  };
}
