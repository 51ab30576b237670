import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type ApiKey, findApiKey, type Role } from '../auth/api-keys.js';
import { type HttpErrorCode, refusal } from '../domain/errors.js';
import { workspaceName } from '../domain/inputs.js';

export const WORKSPACE_HEADER = 'x-engram-workspace';

/** Who is calling: the workspace every read and write of the request acts in, and what it may do. */
export interface Principal {
  workspace: string;
  role: Role;
  /** Names the key in logs (a hash prefix); null in header mode. */
  keyId: string | null;
}

export type Authenticate = (request: Request) => Principal;

function fail(code: HttpErrorCode, message: string, headers?: Record<string, string>) {
  return new GraphQLError(message, { extensions: refusal(code, {}, headers) });
}

const unauthenticated = (message: string) =>
  fail('UNAUTHENTICATED', message, { 'WWW-Authenticate': 'Bearer realm="engram"' });

function headerWorkspace(request: Request): string | null {
  const header = request.headers.get(WORKSPACE_HEADER);
  if (header === null || header === '') return null;
  const parsed = workspaceName.safeParse(header);
  if (!parsed.success) {
    throw fail('BAD_USER_INPUT', `${WORKSPACE_HEADER}: ${parsed.error.issues[0]?.message ?? 'invalid workspace name'}`);
  }
  return parsed.data;
}

/**
 * Resolves the caller of a request, once per request (cached), or throws a coded GraphQLError.
 *
 * - No keys configured (local use): the workspace is the x-engram-workspace header, or the
 *   default; the caller may do everything.
 * - Keys configured: `Authorization: Bearer <key>` is required; the workspace is the key's, and
 *   a header naming another workspace is FORBIDDEN (never silently ignored).
 */
export function createAuthenticator(options: { keys: readonly ApiKey[]; defaultWorkspace: string }): Authenticate {
  const cache = new WeakMap<Request, Principal>();
  const resolve = (request: Request): Principal => {
    const requested = headerWorkspace(request);
    if (options.keys.length === 0)
      return { workspace: requested ?? options.defaultWorkspace, role: 'admin', keyId: null };
    const authorization = request.headers.get('authorization');
    if (authorization === null) throw unauthenticated('Missing credentials: send Authorization: Bearer <API key>');
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization);
    if (!match) throw unauthenticated('Malformed Authorization header: expected Bearer <API key>');
    const key = findApiKey(options.keys, match[1] as string);
    if (!key) throw unauthenticated('Invalid API key');
    if (requested !== null && requested !== key.workspace) {
      throw fail('FORBIDDEN', `This API key may not use workspace "${requested}"`);
    }
    return { workspace: key.workspace, role: key.role, keyId: key.id };
  };
  return (request) => {
    let principal = cache.get(request);
    if (!principal) {
      principal = resolve(request);
      cache.set(request, principal);
    }
    return principal;
  };
}

/** The principal of a request if it was already resolved (for logs); never throws. */
export function principalIfKnown(authenticate: Authenticate, request: Request): Principal | null {
  try {
    return authenticate(request);
  } catch {
    return null;
  }
}

/**
 * Guards the operational endpoints that are not GraphQL: with keys configured, /metrics needs an
 * admin key (it names operations and shows traffic). /health and /ready stay open for probes.
 */
export function useAuth(options: {
  authenticate: Authenticate;
  keysConfigured: boolean;
  /** Paths only an admin key may use (e.g. /metrics). */
  adminPaths: readonly string[];
  /** Paths any valid key may use, refused up front without one (e.g. /mcp, whose clients expect a 401). */
  keyedPaths: readonly string[];
}): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      const adminOnly = options.adminPaths.includes(url.pathname);
      if (!options.keysConfigured || (!adminOnly && !options.keyedPaths.includes(url.pathname))) return;
      let refused: GraphQLError | null = null;
      try {
        const principal = options.authenticate(request);
        if (adminOnly && principal.role !== 'admin')
          refused = fail('FORBIDDEN', `${url.pathname} needs an admin API key`);
      } catch (error) {
        refused = error instanceof GraphQLError ? error : unauthenticated((error as Error).message);
      }
      if (!refused) return;
      // The refusal already carries its code, status and headers (WWW-Authenticate on a 401): answer with them.
      const { http, ...extensions } = refused.extensions as {
        http: { status: number; headers?: Record<string, string> };
      };
      endResponse(
        Response.json(
          { errors: [{ message: refused.message, extensions }] },
          { status: http.status, headers: http.headers ?? {} },
        ),
      );
    },
  };
}
