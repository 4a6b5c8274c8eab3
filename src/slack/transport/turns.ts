// Work goes on one piece per event-loop turn, in order: a request's work after its ack (acknowledge.ts), and what
// follows each Delivery Service answer (the transport's `nextTurn`, set in app.ts).
//
// Node accepts at most one new connection per event-loop turn (libuv ≥ 1.45; test/unit/platform/accept-per-turn.test.ts
// fails if that changes). When every acknowledged command started its work at once, a burst made each turn do the
// work of dozens of commands, and new connections waited seconds to be accepted: Slack shows the person an error
// when the ack takes over 3 s. One piece per turn keeps turns short, so acks keep up with a burst while the work
// takes the same total time. Answers from a slow server arrive in bunches; taking them one per turn too keeps acks
// prompt while the server is late. Measured with these turns and work-places.ts together against a build without
// either (bench/ab-builds.ts, 2 rounds, load average 18): acks at 200 in flight p99 4.5 s / 4.3 s → 0.09 s / 0.30 s;
// with the server 50 ms late, 0.98 s → 0.09 s.
//
// A piece of work with nothing to share its turn with (no other request under way, nobody waiting, no other call to
// the server outstanding) goes on at once instead: waiting for a turn would only add the turn's own cost to what
// the person waits for, and no ack or connection could be held up by it.
//
// One instance per app (createApp makes it and hands it to the in-flight middleware and the transport); what a
// "turn" is comes in from outside, so tests step the turns by hand instead of racing the event loop.

export interface WorkTurns {
  /** Resolves on a later turn than the call, after every earlier caller's turn. */
  next(): Promise<void>;
  /**
   * As next, except that it resolves at once when the caller is alone: at most its own request under way, nobody
   * waiting for a turn, and `otherCalls` (calls to the server still outstanding besides the caller's) zero.
   */
  nextUnlessAlone(otherCalls?: number): Promise<void>;
  /** Counts a request as under way until the returned function is called (once). */
  requestUnderWay(): () => void;
  /** Callers still waiting for their turn. */
  readonly waiting: number;
}

export interface WorkTurnsOptions {
  /** Calls `go` on a later turn of the event loop; `setImmediate` unless a test steps the turns itself. */
  yieldTurn?: (go: () => void) => void;
}

const NOW = Promise.resolve();

export function createWorkTurns(o: WorkTurnsOptions = {}): WorkTurns {
  const yieldTurn = o.yieldTurn ?? ((go: () => void) => setImmediate(go));
  const waiting: (() => void)[] = [];
  let releasing = false;
  let underWay = 0;

  const releaseOne = (): void => {
    waiting.shift()?.();
    if (waiting.length > 0) yieldTurn(releaseOne);
    else releasing = false;
  };

  const next = (): Promise<void> =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!releasing) {
        releasing = true;
        yieldTurn(releaseOne);
      }
    });

  return {
    next,
    nextUnlessAlone(otherCalls = 0) {
      return otherCalls === 0 && underWay <= 1 && waiting.length === 0 ? NOW : next();
    },
    requestUnderWay() {
      underWay++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        underWay--;
      };
    },
    get waiting() {
      return waiting.length;
    },
  };
}
