import { isEngramError } from '../domain/errors.js';
import type { GraphStore } from './port.js';

export interface StoreObserver {
  /** One finished store call: the port method, how long it took, and `ok` or the error code. */
  observe(method: string, seconds: number, outcome: string): void;
  /** Calls started but not finished, across all requests. */
  inFlight(delta: 1 | -1): void;
}

/** Methods that are not store work: labels and lifecycle pass through untouched. */
const PASS_THROUGH = new Set<PropertyKey>(['description', 'close']);

type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * A view of the store whose port methods go through `wrap` (made once per method, on first use);
 * labels, lifecycle and the methods named in `passThrough` are left as they are. The store
 * decorators below (timing, deadline, work budget) are all this with a different `wrap`, and a
 * port method added later is decorated too.
 */
export function decorateStore(
  store: GraphStore,
  wrap: (name: string, call: Method) => Method,
  passThrough: readonly PropertyKey[] = [],
): GraphStore {
  const wrappers = new Map<PropertyKey, Method>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || PASS_THROUGH.has(property) || passThrough.includes(property)) return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        wrapper = wrap(String(property), (...args: unknown[]) => (value as Method).apply(target, args));
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

/**
 * Decorates a store so every port call is timed and counted. It never changes arguments, results
 * or errors.
 */
export function instrumentStore(store: GraphStore, observer: StoreObserver): GraphStore {
  return decorateStore(store, (method, call) => async (...args) => {
    const started = process.hrtime.bigint();
    observer.inFlight(1);
    let outcome = 'ok';
    try {
      return await call(...args);
    } catch (error) {
      outcome = isEngramError(error) ? error.code : 'internal';
      throw error;
    } finally {
      observer.inFlight(-1);
      observer.observe(method, Number(process.hrtime.bigint() - started) / 1e9, outcome);
    }
  });
}

/**
 * A per-request view of the store that refuses to start work once the request's deadline has
 * passed, and stops waiting for a call in progress when it passes (the call's result is then
 * dropped). The error is the signal's reason, so the client sees the deadline's coded error.
 */
export function storeWithDeadline(store: GraphStore, signal: AbortSignal): GraphStore {
  return decorateStore(
    store,
    (_method, call) =>
      (...args) => {
        // Rejected, not thrown: DataLoader batch functions must return a promise.
        if (signal.aborted) return Promise.reject(signal.reason as Error);
        const pending = call(...args);
        return new Promise((resolve, reject) => {
          const onAbort = () => reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
          pending.then(
            (result) => {
              signal.removeEventListener('abort', onAbort);
              resolve(result);
            },
            (error: unknown) => {
              signal.removeEventListener('abort', onAbort);
              reject(error);
            },
          );
        });
      },
    ['ping'],
  );
}
