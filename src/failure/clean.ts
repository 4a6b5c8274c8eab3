// A trace as a person reads it in GitLab's log view: colours and GitLab's collapsible-section markers gone, a
// progress line that rewrote itself with carriage returns shown as it ended, and the runner's own closing lines
// (cleaning up, uploading artifacts for a failed job, "ERROR: Job failed") cut off, since they never say why.

/** CSI sequences (colours, "erase line") and the two-character escapes runners also print. */
const ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;
/** `section_start:1700000000:step_script[collapsed=true]` and its `section_end`, up to the carriage return after. */
const SECTION_MARKER = /section_(?:start|end):\d+:[\w.-]+(?:\[[^\]\r\n]*\])?\r?/g;

/** Lines the runner prints once the job's script is over: what follows them never explains a failure. */
const CLEAN_UP = [
  /^Running after_?script\b/i,
  /^Uploading artifacts for failed job/,
  /^Saving cache for failed job/,
  /^Cleaning up (project directory|file based variables)/,
  /^(ERROR|WARNING): Job failed\b/,
];

/** What a terminal would show of one line that rewrote itself: the text after its last carriage return. */
function settled(line: string): string {
  const body = line.endsWith('\r') ? line.slice(0, -1) : line;
  const at = body.lastIndexOf('\r');
  return at === -1 ? body : body.slice(at + 1);
}

/** The trace's lines without colours or section markers, trailing spaces trimmed. */
export function cleanLines(trace: string): string[] {
  const text = trace.replace(SECTION_MARKER, '').replace(ESCAPES, '');
  return text.split('\n').map((line) => settled(line).trimEnd());
}

/**
 * The lines the job's own script wrote: everything before the runner's clean-up (after_script, artifacts and
 * cache of a failed job, "Cleaning up", the final `ERROR: Job failed`), trailing blank lines dropped.
 */
export function scriptLines(lines: readonly string[]): string[] {
  let end = lines.findIndex((line) => CLEAN_UP.some((re) => re.test(line)));
  if (end === -1) end = lines.length;
  while (end > 0 && (lines[end - 1] as string).trim() === '') end--;
  return lines.slice(0, end);
}
