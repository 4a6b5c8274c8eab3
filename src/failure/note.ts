import type { FailureExcerpt } from './excerpt.js';
import type { FailureVerdict } from './history.js';

/** What a failure surface says about one failed job: the lines that explain it and whether it is flaky or broken. */
export interface FailureNote {
  job: { id: number; name: string; status: string; web_url?: string | undefined };
  /** Null when the trace says nothing (empty, erased) or could not be read. */
  excerpt: FailureExcerpt | null;
  verdict: FailureVerdict | null;
  /** Whether the trace was read and had anything in it: an empty one was erased (or the job never wrote). */
  trace: 'read' | 'empty' | 'unread';
}
