import type { Plugin } from 'graphql-yoga';
import { RequestReads, withRequestReads } from '../store/request-reads.js';

/**
 * Executes each operation inside its own RequestReads, so a store that can serve a request's reads
 * together (Neo4j: one read transaction) finds them, and ends them when execution is over, whether
 * it answered or threw. The end is not awaited: the client does not wait for a COMMIT. The
 * request's deadline goes with them: no transaction of the request commits after it.
 */
export function usePooledReads(): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        const reads = new RequestReads((args.contextValue as { signal?: AbortSignal }).signal ?? null);
        return withRequestReads(reads, async () => {
          try {
            return await executeFn(args);
          } finally {
            void reads.end();
          }
        });
      });
    },
  };
}
