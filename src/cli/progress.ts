/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal: piped or redirected
 * output (CI logs, `2> file`) gets no control characters, only the final summary the command prints.
 */
export interface Progress {
  /** `done` out of the total given at creation (bytes, rows ...); `detail` is free text after the bar. */
  update(done: number, detail: string): void;
  /** Clears the line. */
  done(): void;
}

const WIDTH = 24;

export function createProgress(stream: NodeJS.WriteStream, options: { label: string; total: number }): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  const started = performance.now();
  let last = 0;
  let drawn = false;
  return {
    update(done, detail) {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      const seconds = ((now - started) / 1000).toFixed(0);
      let bar = '';
      if (options.total > 0) {
        const share = Math.min(1, done / options.total);
        const filled = Math.round(share * WIDTH);
        bar = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% `;
      }
      const line = `${options.label} ${bar}${detail} (${seconds} s)`;
      stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, (stream.columns ?? 100) - 1))}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

export const formatCount = (value: number): string => value.toLocaleString('en-US');
