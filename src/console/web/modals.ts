import type { FakeRecord } from '../fake-slack.js';

// Which modal each person has open, as Slack keeps it: a stack of views per person. A view opened with a trigger_id
// belongs to whoever's click or command handed out that trigger; views.update replaces a view by id wherever it is;
// what the bot answers a submission with (update, push, clear, or nothing: the view closes) changes the stack of
// the person who submitted. The bot may open a view before the request that handed out its trigger has returned,
// so the stacks are worked out from the events in order each time they are read, not as the events come.

type View = Record<string, unknown>;

type ModalEvent =
  | { kind: 'open' | 'push'; trigger: string; view: View }
  | { kind: 'update'; viewId: string; view: View }
  | { kind: 'answer-update' | 'answer-push'; user: string; view: View }
  | { kind: 'close' | 'clear'; user: string };

export class ModalStacks {
  private readonly events: ModalEvent[] = [];
  /** trigger_id → the Slack user id of the person whose action handed it out. */
  private readonly owners = new Map<string, string>();
  private answers = 0;

  /** Notes whose action a trigger_id came with. */
  own(trigger: string, user: string): void {
    if (trigger) this.owners.set(trigger, user);
  }

  /** Reads the views the bot opened, pushed or updated through the Web API. */
  observe(r: FakeRecord): boolean {
    if (!r.ok || !r.view) return false;
    if (r.method === 'views.open' || r.method === 'views.push') {
      this.events.push({
        kind: r.method === 'views.open' ? 'open' : 'push',
        trigger: String(r.body.trigger_id),
        view: r.view,
      });
      return true;
    }
    if (r.method === 'views.update') {
      this.events.push({ kind: 'update', viewId: String(r.view.id), view: r.view });
      return true;
    }
    return false;
  }

  /**
   * What the bot acknowledged a submission of `user` with: a view to replace it or push on top, `clear`, `errors`
   * (the view stays, its fields say what is wrong) or nothing (the view closes).
   */
  submitted(user: string, ack: Record<string, unknown> | null): void {
    const action = ack?.response_action;
    this.answers += 1;
    if (action === 'errors') return;
    if ((action === 'update' || action === 'push') && ack && typeof ack.view === 'object' && ack.view) {
      const view = { ...(ack.view as View), id: `VANSWER${this.answers}` };
      this.events.push({ kind: action === 'update' ? 'answer-update' : 'answer-push', user, view });
    } else this.events.push({ kind: action === 'clear' ? 'clear' : 'close', user });
  }

  /** The person closes the view on top (Esc, Cancel, ×). */
  close(user: string): void {
    this.events.push({ kind: 'close', user });
  }

  /** The person's views, bottom first; the last is the one shown. */
  stackOf(user: string): View[] {
    let stack: View[] = [];
    for (const e of this.events) {
      switch (e.kind) {
        case 'open':
          if (this.owners.get(e.trigger) === user) stack = [e.view];
          break;
        case 'push':
          if (this.owners.get(e.trigger) === user) stack.push(e.view);
          break;
        case 'update':
          stack = stack.map((v) => (v.id === e.viewId ? e.view : v));
          break;
        case 'answer-update':
          if (e.user === user && stack.length > 0) stack[stack.length - 1] = { ...e.view, id: stack.at(-1)?.id };
          break;
        case 'answer-push':
          if (e.user === user) stack.push(e.view);
          break;
        case 'close':
          if (e.user === user) stack.pop();
          break;
        case 'clear':
          if (e.user === user) stack = [];
          break;
      }
    }
    return stack;
  }
}
