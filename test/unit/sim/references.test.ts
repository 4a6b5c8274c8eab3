import { describe, expect, it } from 'vitest';
import { closingIssueIids } from '../../../src/sim/references.js';

describe('closingIssueIids', () => {
  it('finds issues named after a closing keyword', () => {
    expect(closingIssueIids('Rounds lines.\n\nCloses #4', 'demo/web')).toEqual([4]);
    expect(closingIssueIids('fixes #4, #5 and #6', 'demo/web')).toEqual([4, 5, 6]);
    expect(closingIssueIids('Resolves: issue #7', 'demo/web')).toEqual([7]);
    expect(closingIssueIids('Closing demo/web#8', 'demo/web')).toEqual([8]);
  });

  it('ignores mentions without a keyword and issues of other projects', () => {
    expect(closingIssueIids('Related to #10.', 'demo/web')).toEqual([]);
    expect(closingIssueIids('Closes demo/docs#3', 'demo/web')).toEqual([]);
    expect(closingIssueIids(null, 'demo/web')).toEqual([]);
  });
});
