/**
 * Keeps the address bar and the view in step (the fragment's format is in url-state.ts): a user's
 * navigation pushes a history entry, a restore rewrites the entry it restores.
 */
import { EMPTY_LOCATION, type ExplorerLocation, formatLocation, parseLocation } from './url-state.js';

export interface LocationSync {
  current(): ExplorerLocation;
  /** A user's navigation: a new history entry, so Back returns to the view before it. */
  record(change: Partial<ExplorerLocation>): void;
  /** Forgets the view (a cleared graph, another workspace) without adding a history entry. */
  reset(): void;
  /**
   * Runs a restore (page load, Back/Forward): navigations inside it rewrite the current entry
   * instead of adding one, so reloading never grows the history.
   */
  restoring(action: () => Promise<void>): Promise<void>;
  /** Called with the new location when the user moves through the history. */
  onNavigate(listener: (location: ExplorerLocation) => void): void;
}

export function createLocationSync(win: Window): LocationSync {
  let restoringDepth = 0;
  const current = () => parseLocation(win.location.hash);

  const write = (location: ExplorerLocation, mode: 'push' | 'replace') => {
    const url = new URL(win.location.href);
    url.hash = formatLocation(location);
    if (url.href === win.location.href) return;
    if (mode === 'push') win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
  };

  return {
    current,
    record(change) {
      write({ ...current(), ...change }, restoringDepth > 0 ? 'replace' : 'push');
    },
    reset() {
      write(EMPTY_LOCATION, 'replace');
    },
    async restoring(action) {
      restoringDepth++;
      try {
        await action();
      } finally {
        restoringDepth--;
      }
    },
    onNavigate(listener) {
      win.addEventListener('popstate', () => listener(current()));
    },
  };
}
