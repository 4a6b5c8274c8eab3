// At most a few requests do their work after the ack at once; the others wait for a place, in the order they asked.
//
// A request at work keeps its state alive (the request, its call to the server, the answer being drawn, the answer on
// its way). With two hundred at work at once most of that lived through several young-generation collections and
// was copied into the old generation, and collecting it cost more CPU per command than the overlap of two hundred
// calls to the server saved. A place held longer than `holdMs` (a slow or unreachable server) is given to the next
// request waiting, and its holder goes on without one: a slow server holds nobody back for longer than that.
// Measured only together with turns.ts (acks at 200 in flight, the figures are there), not apart from it.

export interface WorkPlaces {
  /** Resolves once `holder` may do its work: at once when a place is free or it holds one already. */
  enter(holder: object): Promise<void>;
  /** Gives back `holder`'s place (nothing when it holds none); a holder still waiting stops waiting. */
  leave(holder: object): void;
  /** Holders at work with a place. */
  readonly inUse: number;
  /** Holders waiting for a place. */
  readonly waiting: number;
}

export interface WorkPlacesOptions {
  places: number;
  /** How long a place is held before the next waiting request may have it. */
  holdMs: number;
  /** Monotonic milliseconds. */
  now?: () => number;
  /** Calls `fn` after `ms`; returns a cancel. Tests pass their own. */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

const NOW = Promise.resolve();

const realTimer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

export function createWorkPlaces(o: WorkPlacesOptions): WorkPlaces {
  const now = o.now ?? (() => performance.now());
  const setTimer = o.setTimer ?? realTimer;
  // Holder → when it took its place; a Map keeps insertion order, so the first entry has held its place longest.
  const holders = new Map<object, number>();
  const queue: { holder: object; admit: () => void }[] = [];
  let cancelTimer: (() => void) | null = null;

  const admit = () => {
    while (queue.length > 0 && holders.size < o.places) {
      const next = queue.shift() as (typeof queue)[number];
      holders.set(next.holder, now());
      next.admit();
    }
  };

  /** Places held past `holdMs` go to the requests waiting; then a timer for the next place that will be. */
  const passOnOverdue = () => {
    cancelTimer?.();
    cancelTimer = null;
    for (const [holder, since] of holders) {
      if (queue.length === 0 || now() - since < o.holdMs) break;
      holders.delete(holder);
      admit();
    }
    const oldest = holders.values().next();
    if (queue.length > 0 && !oldest.done) {
      cancelTimer = setTimer(passOnOverdue, Math.max(0, oldest.value + o.holdMs - now()));
    }
  };

  return {
    enter(holder) {
      if (holders.has(holder)) return NOW;
      if (holders.size < o.places) {
        holders.set(holder, now());
        return NOW;
      }
      return new Promise<void>((resolve) => {
        queue.push({ holder, admit: resolve });
        if (!cancelTimer) passOnOverdue();
      });
    },
    leave(holder) {
      if (holders.delete(holder)) {
        admit();
        if (queue.length === 0) {
          cancelTimer?.();
          cancelTimer = null;
        }
        return;
      }
      const i = queue.findIndex((w) => w.holder === holder);
      if (i >= 0) queue.splice(i, 1);
    },
    get inUse() {
      return holders.size;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * The places createApp makes for requests' work after their acks: acknowledge.ts takes one, the in-flight middleware
 * gives it back when the request is done. A place passes on after half a second: a click that opens a form must open
 * it within 3 s (Slack's trigger_id), so waiting behind slow holders must stay well short of that.
 */
export const REQUEST_WORK_PLACES: WorkPlacesOptions = { places: 32, holdMs: 500 };
