import { describe, expect, it } from 'vitest';
import { useDemoConsole } from '../../support/demo-console.js';

// The one "Something went wrong" a new user met on `/gl digest todos` although the digest was stored: the answer
// goes to the command's response_url over a kept-alive connection, and when the other side's idle timeout closed
// that connection just as the answer went out, the POST failed with ECONNRESET and surfaced as an unexpected
// error, after the digest had been created. The fake Slack closes the reused connection on purpose here.

const c = useDemoConsole();

describe('an answer whose kept-alive connection was closed as it went out', () => {
  it('still arrives: /gl digest todos as bob shows the new digest, not an error with a reference', async () => {
    await c.say('as bob');
    expect(await c.say('/gl digest todos')).toContain('Digest #1');
    c.demo.fake.resetReusedConnections('/response/');
    const said = await c.say('/gl digest todos --here');
    expect(said).not.toMatch(/Something went wrong/);
    expect(said).toContain('Digest #2');
    expect(said).toContain('Created by @bob');
  });
});
