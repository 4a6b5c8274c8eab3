// Which issues a merge request description closes, by GitLab's default closing
// pattern: "Closes #4", "fixes #4, #5 and #6", "Resolves demo/web#4".

const KEYWORD = '(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing))';
const REF = String.raw`(?:[\w.-]+\/[\w.-]+)?#\d+`;
const CLOSING = new RegExp(String.raw`\b${KEYWORD}:? +(?:issues? +)?(${REF}(?:(?: *,? +| *,? *and +)${REF})*)`, 'g');
const ONE_REF = /(?:([\w.-]+\/[\w.-]+))?#(\d+)/g;

/** The iids of issues in `projectPath` that the text closes. */
export function closingIssueIids(text: string | null, projectPath: string): number[] {
  if (!text) return [];
  const iids = new Set<number>();
  for (const m of text.matchAll(CLOSING)) {
    for (const r of (m[1] ?? '').matchAll(ONE_REF)) {
      if (r[1] && r[1].toLowerCase() !== projectPath.toLowerCase()) continue;
      iids.add(Number(r[2]));
    }
  }
  return [...iids];
}
