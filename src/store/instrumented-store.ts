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

/**
 * Decorates a store so every port call is timed and counted. It wraps whatever methods the
 * store has (a port method added later is measured too) and never changes arguments, results
 * or errors.
 */
export function instrumentStore(store: GraphStore, observer: StoreObserver): GraphStore {
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || PASS_THROUGH.has(property)) return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        const method = String(property);
        wrapper = async (...args: unknown[]) => {
          const started = process.hrtime.bigint();
          observer.inFlight(1);
          let outcome = 'ok';
          try {
            return await (value as (...a: unknown[]) => unknown).apply(target, args);
          } catch (error) {
            outcome = isEngramError(error) ? error.code : 'internal';
            throw error;
          } finally {
            observer.inFlight(-1);
            observer.observe(method, Number(process.hrtime.bigint() - started) / 1e9, outcome);
          }
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

/**
 * A per-request view of the store that refuses to start work once the request's deadline has
 * passed, and stops waiting for a call in progress when it passes (the call's result is then
 * dropped). The error is the signal's reason, so the client sees the deadline's coded error.
 */
export function storeWithDeadline(store: GraphStore, signal: AbortSignal): GraphStore {
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || PASS_THROUGH.has(property) || property === 'ping') return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        wrapper = (...args: unknown[]) => {
          // Rejected, not thrown: DataLoader batch functions must return a promise.
          if (signal.aborted) return Promise.reject(signal.reason as Error);
          const call = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          return new Promise((resolve, reject) => {
            const onAbort = () => reject(signal.reason);
            signal.addEventListener('abort', onAbort, { once: true });
            call.then(
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
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
