import { type Logger, pino } from 'pino';

/**
 * Logs go to stderr (fd 2): the MCP server speaks its protocol on stdout, and sharing one logger
 * setup keeps every entry point safe. Writes are asynchronous: a request no longer waits on a
 * write system call for its log line, and lines written while one write is in flight go out
 * together. pino flushes what is buffered, synchronously, when the process exits; the server first
 * closes it with a time limit (closeLogs), so a stalled log reader cannot hold its exit.
 */
export function createLogger(level: string): Logger {
  return pino(
    { level, base: { service: 'engram' } },
    pino.destination({ dest: 2, sync: false, maxLength: MAX_BUFFERED_LOG_BYTES }),
  );
}

/** Log bytes held while stderr does not take them (a stalled reader); later lines are dropped until it does. */
const MAX_BUFFERED_LOG_BYTES = 16 * 1024 * 1024;

/** The part of pino's destination (SonicBoom) that closeLogs uses. */
interface Destination {
  end(): void;
  once(event: 'close' | 'error', listener: () => void): void;
  on(event: 'error', listener: () => void): void;
  flushSync(): void;
  retryEAGAIN(): boolean;
}

/** How closeLogs ended: everything written; the rest dropped; or a write stuck in the kernel (see closeLogs). */
export type LogsClosed = 'flushed' | 'dropped' | 'stuck';

/**
 * The last thing a process does before it exits: writes what the logger has buffered and closes
 * its destination (stderr itself stays open), waiting at most `timeoutMs`. Nothing may be logged
 * after it. When stderr is a pipe that nobody reads any more, the writes never complete, and the
 * synchronous flush pino runs at exit would block the process for as long (a server ignoring
 * SIGTERM). Past the timeout, what is left is dropped, as pino itself does when the pipe is broken
 * (EPIPE): retries stop and the exit flush is turned off ('dropped'). A write that is blocked in
 * the kernel (stderr in blocking mode) cannot be called back, and Node's exit waits for the thread
 * doing it: then 'stuck', and the caller must end the process another way.
 */
export async function closeLogs(logger: Logger, timeoutMs: number): Promise<LogsClosed> {
  const destination = (logger as unknown as Record<symbol, Partial<Destination> | undefined>)[pino.symbols.streamSym];
  if (
    typeof destination?.end !== 'function' ||
    typeof destination.once !== 'function' ||
    typeof destination.on !== 'function'
  )
    return 'flushed';
  const stream = destination as Destination;
  const settled = (event: 'close' | 'error', ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      stream.once(event, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  const closed = settled('close', timeoutMs);
  try {
    stream.end();
  } catch {
    return 'dropped';
  }
  if (await closed) return 'flushed';
  stream.flushSync = () => {};
  stream.on('error', () => {});
  stream.retryEAGAIN = () => false;
  // A write answered EAGAIN is retried every 100 ms; the next one now fails instead. A write
  // blocked in the kernel never answers.
  return (await settled('error', 500)) ? 'dropped' : 'stuck';
}

export type { Logger };
