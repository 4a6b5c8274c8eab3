// Work goes on one piece per event-loop turn, in order: a request's work after its ack (acknowledge.ts), and what
// follows each Delivery Service answer (the transport's `nextTurn`, set in app.ts).
//
// Node accepts at most one new connection per event-loop turn (libuv ≥ 1.45). When every acknowledged command
// started its work at once, a burst made each turn do the work of dozens of commands, and new connections waited
// seconds to be accepted. One piece per turn keeps turns short, so acks keep up with a burst while the work takes
// the same total time. Answers from a slow server arrive in bunches; taking them one per turn too keeps acks
// prompt while the server is late. (`npm run bench` measures this; the figures are in the README's Benchmarks.)
//
// A piece of work with nothing to share its turn with (no other request under way, nobody waiting, no other call to
// the server outstanding) goes on at once instead: waiting for a turn would only add the turn's own cost to what
// the person waits for, and no ack or connection could be held up by it.

const waiting: (() => void)[] = [];
let releasing = false;

function releaseOne(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(releaseOne);
  else releasing = false;
}

/** Resolves on a later event-loop turn than the call, after every earlier caller's turn. */
export function nextWorkTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!releasing) {
      releasing = true;
      setImmediate(releaseOne);
    }
  });
}

/** Slack requests under way in this process (the in-flight middleware counts them). */
let underWay = 0;

/** Counts a request as under way until the returned function is called (once). */
export function requestUnderWay(): () => void {
  underWay++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    underWay--;
  };
}

const NOW = Promise.resolve();

/**
 * As nextWorkTurn, except that it resolves at once when the caller is alone: at most its own request under way,
 * nobody waiting for a turn, and `otherCalls` (calls to the server still outstanding besides the caller's) zero.
 */
export function nextWorkTurnUnlessAlone(otherCalls = 0): Promise<void> {
  return otherCalls === 0 && underWay <= 1 && waiting.length === 0 ? NOW : nextWorkTurn();
}

/** Callers still waiting for their turn. */
export function waitingForTurn(): number {
  return waiting.length;
}
