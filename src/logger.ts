import { pino, type Logger } from 'pino';

/**
 * Logs go to stderr (fd 2): the MCP server speaks its protocol on stdout, and sharing one logger
 * setup keeps every entry point safe. Writes are asynchronous: a request no longer waits on a
 * write system call for its log line, and lines written while one write is in flight go out
 * together. pino flushes what is buffered, synchronously, when the process exits.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'engram' } }, pino.destination({ dest: 2, sync: false }));
}

export type { Logger };
