import { GraphQLError, Kind, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Content types a browser may send cross-site without a preflight ("simple" requests). */
const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/**
 * CSRF prevention, as yoga's and Apollo's: a GraphQL request must be one a browser would only
 * send after a CORS preflight, so another site cannot make a visitor's browser call the API.
 * That holds when it has a non-simple content type (application/json, as every client sends)
 * or one of `requestHeaders` (x-engram-workspace, authorization ...). A plain GET or a form post
 * without them is refused with 403 before it is parsed. GraphiQL, /health, /ready and /metrics
 * are answered before this check and are unaffected.
 */
export function useCsrfPrevention(options: { requestHeaders: readonly string[]; maxTokens: number }): Plugin {
  return {
    onRequestParse({ request, url }) {
      if (options.requestHeaders.some((header) => request.headers.has(header))) return;
      // Yoga refuses a mutation over GET with 405, which says more than a CSRF refusal: let it.
      if (request.method === 'GET' && asksForMutation(url.searchParams.get('query'), options.maxTokens)) return;
      const contentType = request.headers.get('content-type');
      if (contentType !== null) {
        const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
        if (mime !== '' && !SIMPLE_CONTENT_TYPES.has(mime)) return;
      }
      throw new GraphQLError(
        `Request refused by CSRF prevention: send Content-Type: application/json, or one of the headers ${options.requestHeaders.join(', ')}.`,
        { extensions: { code: 'FORBIDDEN', retryable: false, reason: 'CSRF_PREVENTION', http: { status: 403 } } },
      );
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
