/**
 * Admission for GraphQL executions: a few seats per process, and fair queues in front of them,
 * one per flow (a workspace, or a workspace and API key). Work-conserving: a request that finds a
 * seat free runs at once, whoever else exists, so a client alone on the server is never refused
 * and waits only behind its own requests, when it has more in flight than there are seats. When every seat is taken, the next free seat goes to the waiting flow that has
 * done the least work so far (start-time fair queuing, the flows' virtual times advanced by the
 * actual cost of what they ran, as Kubernetes API Priority and Fairness advances them by seat
 * time): a flow that sends heavy requests gets fewer of them through, a flow that sends light ones
 * more, each about the same share of the work done.
 *
 * Work, not seat time: on SQLite every request in flight takes turns on the one event loop, so a
 * light request's seat time is mostly the heavy requests' turns, and sharing seat time would give
 * a heavy flow as many requests as a light one. The cost a request reports is its actual cost
 * (1, plus the rows it read and wrote, plus its walk steps), the unit quotas charge too.
 *
 * Queues are bounded in total (`maxQueued`): when they are full, the flow with the longest queue
 * gives up its newest request, so the flow over its share is refused and the others are not. A
 * request waits at most `maxWaitMs` for a seat, and stops waiting when its deadline passes.
 */

export interface SchedulerOptions {
  /** Requests executing at once. */
  seats: number;
  /** Requests waiting, all flows together. */
  maxQueued: number;
  /** Longest a request waits for a seat before it is refused. */
  maxWaitMs: number;
}

/** Why a request got no seat; the HTTP layer answers RATE_LIMITED with `retryAfterMs`. */
export class AdmissionRefused extends Error {
  override name = 'AdmissionRefused';
  constructor(
    readonly reason: 'QUEUE_FULL' | 'QUEUE_TIMEOUT',
    readonly retryAfterMs: number,
  ) {
    super(reason === 'QUEUE_FULL' ? 'the wait queue is full' : 'no seat came free in time');
  }
}

/** A seat held by one request; release it when the request's execution ends, with what the request did (a second release does nothing). */
export interface Seat {
  release(cost: number): void;
}

interface Waiter {
  grant(seat: Seat): void;
  refuse(error: unknown): void;
  /** Stops the waiter's timer and signal listener. */
  settle(): void;
}

interface Flow {
  /** Work charged so far, counted from the floor the flow joined at: its virtual time. */
  used: number;
  queue: Waiter[];
  inFlight: number;
  /** Typical cost of this flow's requests: charged when a seat is granted, corrected at release. */
  typicalCost: number;
}

/** What a flow is charged for a request before the first of its requests has reported its cost. */
const FIRST_GUESS = 1;
/** Weight of the newest cost in a flow's typical cost. */
const SMOOTHING = 0.2;
/** A rough price of a point of work in time, only for the retry hint of a refusal: a row costs microseconds, a request's overhead about a millisecond. */
const MS_PER_POINT = 0.05;

export interface SchedulerStats {
  executing: number;
  queued: number;
  flows: number;
}

export class FairScheduler {
  private readonly flows = new Map<string, Flow>();
  private executing = 0;
  private queued = 0;

  constructor(private readonly options: SchedulerOptions) {}

  /**
   * A seat for one request of `flowKey`: at once when one is free (no promise, no turn of the
   * event loop), else a promise that resolves when the fair order reaches it, or rejects with
   * AdmissionRefused, or with the signal's reason when it aborts first.
   */
  acquire(flowKey: string, signal?: AbortSignal): Seat | Promise<Seat> {
    signal?.throwIfAborted();
    const flow = this.join(flowKey);
    if (this.executing < this.options.seats && this.queued === 0) return this.grant(flowKey, flow);
    return this.enqueue(flowKey, flow, signal);
  }

  get stats(): SchedulerStats {
    return { executing: this.executing, queued: this.queued, flows: this.flows.size };
  }

  /** The flow, created when it has nothing running or waiting; a newcomer starts level with the least-served active flow. */
  private join(flowKey: string): Flow {
    const known = this.flows.get(flowKey);
    if (known) return known;
    let floor = Number.POSITIVE_INFINITY;
    for (const flow of this.flows.values()) floor = Math.min(floor, flow.used);
    const flow: Flow = { used: Number.isFinite(floor) ? floor : 0, queue: [], inFlight: 0, typicalCost: FIRST_GUESS };
    this.flows.set(flowKey, flow);
    return flow;
  }

  private grant(flowKey: string, flow: Flow): Seat {
    this.executing++;
    flow.inFlight++;
    // Charged now, so a flow cannot take every free seat at once before any of its requests ends.
    const charged = flow.typicalCost;
    flow.used += charged;
    let released = false;
    return {
      release: (cost) => {
        if (released) return;
        released = true;
        flow.used += cost - charged;
        flow.typicalCost += SMOOTHING * (cost - flow.typicalCost);
        flow.inFlight--;
        this.executing--;
        this.forgetIfIdle(flowKey, flow);
        this.dispatch();
      },
    };
  }

  private enqueue(flowKey: string, flow: Flow, signal: AbortSignal | undefined): Promise<Seat> {
    if (this.queued >= this.options.maxQueued) {
      const longest = this.longestQueue();
      if (!longest || longest[1] === flow || longest[1].queue.length <= flow.queue.length) {
        this.forgetIfIdle(flowKey, flow);
        throw new AdmissionRefused('QUEUE_FULL', this.retryAfterMs(flow));
      }
      const [victimKey, victim] = longest;
      const evicted = victim.queue.pop() as Waiter;
      this.queued--;
      evicted.settle();
      evicted.refuse(new AdmissionRefused('QUEUE_FULL', this.retryAfterMs(victim)));
      this.forgetIfIdle(victimKey, victim);
    }
    return new Promise<Seat>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = (error: unknown) => {
        const at = flow.queue.indexOf(waiter);
        if (at < 0) return;
        flow.queue.splice(at, 1);
        this.queued--;
        waiter.settle();
        this.forgetIfIdle(flowKey, flow);
        reject(error);
      };
      const onAbort = () => leave(signal?.reason);
      const waiter: Waiter = {
        grant: resolve,
        refuse: reject,
        settle: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      timer = setTimeout(
        () => leave(new AdmissionRefused('QUEUE_TIMEOUT', this.retryAfterMs(flow))),
        this.options.maxWaitMs,
      );
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      flow.queue.push(waiter);
      this.queued++;
      this.dispatch();
    });
  }

  /** Hands free seats to waiting flows, the least-served first (ties: the one that joined first). */
  private dispatch(): void {
    while (this.executing < this.options.seats && this.queued > 0) {
      let next: [string, Flow] | undefined;
      for (const entry of this.flows) {
        if (entry[1].queue.length > 0 && (!next || entry[1].used < next[1].used)) next = entry;
      }
      if (!next) return;
      const [flowKey, flow] = next;
      const waiter = flow.queue.shift() as Waiter;
      this.queued--;
      waiter.settle();
      waiter.grant(this.grant(flowKey, flow));
    }
  }

  private longestQueue(): [string, Flow] | undefined {
    let longest: [string, Flow] | undefined;
    for (const entry of this.flows) {
      if (!longest || entry[1].queue.length > longest[1].queue.length) longest = entry;
    }
    return longest;
  }

  /** About how long until the flow's queue has drained through its share of the seats, at MS_PER_POINT. */
  private retryAfterMs(flow: Flow): number {
    const active = [...this.flows.values()].filter((f) => f.queue.length > 0 || f.inFlight > 0).length;
    const share = Math.max(1, this.options.seats / Math.max(1, active));
    return Math.max(
      1,
      Math.min(this.options.maxWaitMs, Math.ceil(((flow.queue.length + 1) * flow.typicalCost * MS_PER_POINT) / share)),
    );
  }

  /** A flow with nothing running or waiting is dropped: memory grows with activity, not with the number of workspaces. */
  private forgetIfIdle(flowKey: string, flow: Flow): void {
    if (flow.inFlight === 0 && flow.queue.length === 0) this.flows.delete(flowKey);
  }
}
