import { isPrimaryMessage, type PrimaryMessage, type WorkerMessage } from './messages.js';

/** How long a worker waits for the primary's answer before taking it for gone. */
const ASK_TIMEOUT_MS = 5000;

type Ask = Extract<WorkerMessage, { id: number }>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** A worker's side of the IPC channel to the primary. */
export interface PrimaryChannel {
  /** Sends an ask and resolves with the primary's reply; rejects when the primary is gone or silent. */
  ask(message: DistributiveOmit<Ask, 'id'>): Promise<unknown>;
  tell(message: WorkerMessage): void;
  /** Calls `listener` for each message the primary sends unasked. */
  onMessage(listener: (message: PrimaryMessage) => void): void;
}

export function createPrimaryChannel(proc: NodeJS.Process = process): PrimaryChannel {
  let nextId = 0;
  const pending = new Map<number, { resolve: (answer: unknown) => void; reject: (error: Error) => void }>();
  const listeners: ((message: PrimaryMessage) => void)[] = [];
  proc.on('message', (message: unknown) => {
    if (!isPrimaryMessage(message)) return;
    if (message.engram !== 'reply') {
      for (const listener of listeners) listener(message);
      return;
    }
    pending.get(message.id)?.resolve(message.answer);
    pending.delete(message.id);
  });
  proc.on('disconnect', () => {
    for (const { reject } of pending.values()) reject(new Error('the primary process is gone'));
    pending.clear();
  });
  const send = (message: WorkerMessage): boolean => {
    if (!proc.connected || !proc.send) return false;
    proc.send(message);
    return true;
  };
  return {
    ask(message) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the primary did not answer a ${message.engram} ask in ${ASK_TIMEOUT_MS} ms`));
        }, ASK_TIMEOUT_MS);
        const settle =
          <T>(then: (value: T) => void) =>
          (value: T) => {
            clearTimeout(timer);
            then(value);
          };
        pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
        if (!send({ ...message, id } as Ask)) pending.get(id)?.reject(new Error('the primary process is gone'));
      });
    },
    tell(message) {
      send(message);
    },
    onMessage(listener) {
      listeners.push(listener);
    },
  };
}
