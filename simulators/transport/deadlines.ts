// Every exchange's deadline with one Node timer per timeout length, not one per exchange. A timer set and cleared per
// request cost ~1-1.7 µs of a fleet's client CPU (a Timeout object, its async id, the timer list); exchanges of one
// length reach their deadlines in the order they began, so a linked list (O(1) add and remove) and one timer on its
// head are enough.
import { performance } from 'node:perf_hooks';

/** What a deadline ends: linked into its length's list while it waits (the fields are the list's). */
export interface Expiring {
  expire(): void;
  deadlineAt: number;
  deadlinePrev: Expiring | undefined;
  deadlineNext: Expiring | undefined;
  deadlineList: DeadlineList | undefined;
}

/** Node's own bounds on a timer's delay: outside them it waits 1 ms (kept, so a deadline means what it always did). */
const TIMEOUT_MAX = 2 ** 31 - 1;

const lists = new Map<number, DeadlineList>();

/** `x` expires `ms` from now unless removed first. */
export function addDeadline(x: Expiring, ms: number): void {
  const delay = ms >= 1 && ms <= TIMEOUT_MAX ? ms : 1;
  let list = lists.get(delay);
  if (!list) lists.set(delay, (list = new DeadlineList(delay)));
  list.add(x);
}

/** `x` is over (answered or failed): its deadline no longer applies. */
export function removeDeadline(x: Expiring): void {
  x.deadlineList?.remove(x);
}

export class DeadlineList {
  private head: Expiring | undefined;
  private tail: Expiring | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {}

  add(x: Expiring): void {
    x.deadlineAt = performance.now() + this.ms;
    x.deadlineList = this;
    x.deadlinePrev = this.tail;
    x.deadlineNext = undefined;
    if (this.tail) this.tail.deadlineNext = x;
    else this.head = x;
    this.tail = x;
    this.timer ??= setTimeout(this.fire, this.ms);
  }

  remove(x: Expiring): void {
    if (x.deadlineList !== this) return;
    if (x.deadlinePrev) x.deadlinePrev.deadlineNext = x.deadlineNext;
    else this.head = x.deadlineNext;
    if (x.deadlineNext) x.deadlineNext.deadlinePrev = x.deadlinePrev;
    else this.tail = x.deadlinePrev;
    x.deadlineList = x.deadlinePrev = x.deadlineNext = undefined;
    // Nothing left to wait for: no timer holds the process open.
    if (!this.head && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** The head's time (or an earlier one's, since removed) has come: expire what is due, wait for the next one. */
  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    while (this.head && this.head.deadlineAt <= now) {
      const due = this.head;
      this.remove(due);
      due.expire();
    }
    if (this.head) this.timer = setTimeout(this.fire, Math.max(1, this.head.deadlineAt - now));
  };
}
