import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Engram takes no file uploads: a multipart/form-data request (the GraphQL multipart request
 * spec) is refused with 415 before it is parsed, so no File can become an argument's value.
 * yoga's multipart parser is off too (`multipart: false` in createApp); this gives the refusal a
 * message and a code.
 */
export function useNoUploads(): Plugin {
  return {
    onRequestParse({ request }) {
      const mime = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (mime !== 'multipart/form-data') return;
      throw new GraphQLError(
        'Engram takes no file uploads: multipart/form-data requests are refused. Send the operation as application/json.',
        {
          extensions: { code: 'BAD_REQUEST', retryable: false, http: { status: 415 } },
        },
      );
    },
  };
}
