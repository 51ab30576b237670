import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError, Kind, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { refusal } from '../domain/errors.js';

/**
 * CSRF prevention by yoga's plugin: a GraphQL request must be one a browser would only send
 * after a CORS preflight, so another site cannot make a visitor's browser call the API. That
 * holds when it has a non-simple content type (application/json, as every client sends) or one
 * of `requestHeaders` (x-engram-workspace, authorization ...). A plain GET or a form post without
 * them is refused with 403 before it is parsed. Around the plugin: its refusal gets the
 * contract's code and a message saying what to send, and a mutation over GET is left to yoga's
 * 405, which says more. GraphiQL, /health, /ready and /metrics are answered before this check.
 */
export function useCsrfPrevention(options: { requestHeaders: readonly string[]; maxTokens: number }): Plugin {
  const check = useCSRFPrevention({ requestHeaders: [...options.requestHeaders] }).onRequestParse;
  return {
    onRequestParse(payload) {
      const { request, url } = payload;
      if (request.method === 'GET' && asksForMutation(url.searchParams.get('query'), options.maxTokens)) return;
      try {
        return check?.(payload);
      } catch {
        throw new GraphQLError(
          `Request refused by CSRF prevention: send Content-Type: application/json, or one of the headers ${options.requestHeaders.join(', ')}.`,
          { extensions: refusal('FORBIDDEN', { reason: 'CSRF_PREVENTION' }) },
        );
      }
    },
  };
}

function asksForMutation(query: string | null, maxTokens: number): boolean {
  if (query === null) return false;
  try {
    return parse(query, { maxTokens, noLocation: true }).definitions.some(
      (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation',
    );
  } catch {
    return false;
  }
}
