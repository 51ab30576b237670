/**
 * The page's GraphQL client: the checked-in named operations of schema/operations, sent to
 * /graphql with the workspace header. Documents are inlined at build time (esbuild text loader);
 * fragments they spread are taken from fragments.graphql, as codegen does.
 */
import exploreEdge from '../../schema/operations/explore-edge.graphql';
import exploreNeighborhood from '../../schema/operations/explore-neighborhood.graphql';
import explorePath from '../../schema/operations/explore-path.graphql';
import exploreSearch from '../../schema/operations/explore-search.graphql';
import fragments from '../../schema/operations/fragments.graphql';
import memoryFeedback from '../../schema/operations/memory-feedback.graphql';
import memoryRecall from '../../schema/operations/memory-recall.graphql';
import memoryStrengthen from '../../schema/operations/memory-strengthen.graphql';
import memoryWeaken from '../../schema/operations/memory-weaken.graphql';
import relationTypes from '../../schema/operations/relation-types.graphql';
import type {
  ExploreEdgeQuery,
  ExploreEdgeQueryVariables,
  ExploreNeighborhoodQuery,
  ExploreNeighborhoodQueryVariables,
  ExplorePathQuery,
  ExplorePathQueryVariables,
  ExploreSearchQuery,
  ExploreSearchQueryVariables,
  MemoryFeedbackMutation,
  MemoryFeedbackMutationVariables,
  MemoryRecallQuery,
  MemoryRecallQueryVariables,
  MemoryStrengthenMutation,
  MemoryStrengthenMutationVariables,
  MemoryWeakenMutation,
  MemoryWeakenMutationVariables,
  RelationTypesQuery,
  RelationTypesQueryVariables,
} from '../../src/generated/graphql.js';

const WORKSPACE_HEADER = 'x-engram-workspace';

/** A named operation; the type parameters only tie its result and variables together. */
export interface Operation<TResult, TVariables> {
  name: string;
  document: string;
  /** Never set: carries the types. */
  readonly __types?: [TResult, TVariables];
}

const FRAGMENT_DEFINITIONS: ReadonlyMap<string, string> = new Map(
  fragments
    .split(/^(?=fragment\s)/m)
    .map((block) => block.trim())
    .filter((block) => block.startsWith('fragment'))
    .map((block) => [/^fragment\s+(\w+)/.exec(block)?.[1] ?? '', block] as const),
);

/** The names of the fragments a document spreads (`...Name`, not inline `... on Type`). */
function spreads(text: string): string[] {
  return [...text.matchAll(/\.\.\.\s*([A-Za-z_]\w*)/g)].map((match) => match[1] ?? '').filter((name) => name !== 'on');
}

/** The document plus every fragment it needs, transitively, each once. */
function withFragments(document: string): string {
  const needed = new Set<string>();
  const queue = spreads(document);
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (needed.has(name)) continue;
    const definition = FRAGMENT_DEFINITIONS.get(name);
    if (!definition) throw new Error(`Operation spreads unknown fragment ${name}`);
    needed.add(name);
    queue.push(...spreads(definition));
  }
  return [document.trim(), ...[...needed].map((name) => FRAGMENT_DEFINITIONS.get(name))].join('\n\n');
}

function operation<TResult, TVariables>(document: string): Operation<TResult, TVariables> {
  const name = /^\s*(?:query|mutation)\s+(\w+)/m.exec(document)?.[1];
  if (!name) throw new Error('Operation document without a named query or mutation');
  return { name, document: withFragments(document) };
}

export const operations = {
  relationTypes: operation<RelationTypesQuery, RelationTypesQueryVariables>(relationTypes),
  search: operation<ExploreSearchQuery, ExploreSearchQueryVariables>(exploreSearch),
  neighborhood: operation<ExploreNeighborhoodQuery, ExploreNeighborhoodQueryVariables>(exploreNeighborhood),
  edge: operation<ExploreEdgeQuery, ExploreEdgeQueryVariables>(exploreEdge),
  path: operation<ExplorePathQuery, ExplorePathQueryVariables>(explorePath),
  weaken: operation<MemoryWeakenMutation, MemoryWeakenMutationVariables>(memoryWeaken),
  strengthen: operation<MemoryStrengthenMutation, MemoryStrengthenMutationVariables>(memoryStrengthen),
  feedback: operation<MemoryFeedbackMutation, MemoryFeedbackMutationVariables>(memoryFeedback),
  recall: operation<MemoryRecallQuery, MemoryRecallQueryVariables>(memoryRecall),
};

/** A GraphQL error answer, with the contract's `extensions.code` when the server gave one. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

function credentialHeaders({
  workspace,
  apiKey,
}: {
  workspace: string;
  apiKey: string | null;
}): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : { [WORKSPACE_HEADER]: workspace };
}

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export interface ApiClient {
  run<TResult, TVariables>(op: Operation<TResult, TVariables>, variables: TVariables): Promise<TResult>;
}

/**
 * `credentials()`: with an API key, `Authorization: Bearer` and no workspace header (the key's
 * workspace applies; the server refuses a header naming another); without, the chosen workspace.
 */
export function createApiClient(options: {
  endpoint: string;
  credentials: () => { workspace: string; apiKey: string | null };
}): ApiClient {
  async function run<TResult, TVariables>(op: Operation<TResult, TVariables>, variables: TVariables): Promise<TResult> {
    let response: Response;
    try {
      response = await fetch(options.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...credentialHeaders(options.credentials()),
        },
        body: JSON.stringify({ query: op.document, operationName: op.name, variables }),
      });
    } catch {
      throw new ApiError('The server did not answer; is Engram running?', 'UNAVAILABLE');
    }
    let answer: GraphQLAnswer<TResult>;
    try {
      answer = (await response.json()) as GraphQLAnswer<TResult>;
    } catch {
      throw new ApiError(`The server answered ${response.status} without a GraphQL body`, undefined);
    }
    const first = answer.errors?.[0];
    if (first) throw new ApiError(first.message, first.extensions?.code);
    if (answer.data === undefined || answer.data === null)
      throw new ApiError('The server answered without data', undefined);
    return answer.data;
  }
  return { run };
}
