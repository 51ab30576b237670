/** The status line, and the wrapper that turns a failed user action into a message there. */
import { ApiError } from './api.js';
import type { Elements } from './elements.js';

export interface StatusLine {
  show(message: string, tone?: 'info' | 'error'): void;
  /** Runs a user action; failures become a status message instead of an unhandled rejection. */
  run(action: () => Promise<void>): Promise<void>;
}

export function createStatusLine(el: Pick<Elements, 'status' | 'apiKeyBox' | 'apiKeyInput'>): StatusLine {
  const show: StatusLine['show'] = (message, tone = 'info') => {
    el.status.textContent = message;
    el.status.classList.toggle('error', tone === 'error');
  };
  return {
    show,
    async run(action) {
      document.body.setAttribute('aria-busy', 'true');
      try {
        await action();
      } catch (error) {
        const code = error instanceof ApiError && error.code ? ` (${error.code})` : '';
        show(`${error instanceof Error ? error.message : String(error)}${code}`, 'error');
        if (error instanceof ApiError && error.code === 'UNAUTHENTICATED') {
          el.apiKeyBox.open = true;
          el.apiKeyInput.focus();
        }
      } finally {
        document.body.removeAttribute('aria-busy');
      }
    },
  };
}
