import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import {
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ConfigError } from '../config.js';

/** Trusted documents by the sha256 (hex) of their canonical text, and each one's operation name. */
export type TrustedDocuments = Map<string, { name: string; text: string }>;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function fragmentsUsed(
  root: DefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const pending: DefinitionNode[] = [root];
  while (pending.length > 0) {
    visit(pending.pop() as DefinitionNode, {
      FragmentSpread(node) {
        const name = node.name.value;
        const fragment = fragments.get(name);
        if (fragment && !used.has(name)) {
          used.set(name, fragment);
          pending.push(fragment);
        }
      },
    });
  }
  return [...used.values()].sort((a, b) => (a.name.value < b.name.value ? -1 : 1));
}

/**
 * The canonical text of one operation: the operation, then every fragment it uses (directly or
 * through other fragments) sorted by name, printed by graphql-js. Formatting, comments and the
 * order of definitions in the source do not change it; its sha256 is the operation's id.
 */
function canonicalText(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): string {
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [operation, ...fragmentsUsed(operation, fragments)],
  };
  return print(document);
}

const fragmentMap = (definitions: readonly DefinitionNode[]) =>
  new Map(
    definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );

/**
 * Reads every *.graphql file of `dir` (fragments may live in any file) and returns one trusted
 * document per named operation. Unreadable or invalid files stop start-up, naming the file.
 */
export function loadTrustedDocuments(dir: string): TrustedDocuments {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith('.graphql'))
      .sort();
  } catch (error) {
    throw new ConfigError(
      `ENGRAM_PERSISTED_ONLY: cannot read the operations folder ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const definitions: DefinitionNode[] = [];
  for (const file of files) {
    try {
      definitions.push(...parse(readFileSync(join(dir, file), 'utf8')).definitions);
    } catch (error) {
      throw new ConfigError(
        `ENGRAM_PERSISTED_ONLY: ${join(dir, file)} is not a valid GraphQL document: ${(error as Error).message}`,
      );
    }
  }
  const fragments = fragmentMap(definitions);
  const documents: TrustedDocuments = new Map();
  for (const definition of definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
    const text = canonicalText(definition, fragments);
    documents.set(sha256(text), { name: definition.name.value, text });
  }
  return documents;
}

/** The id a client's full document would have, or null when it does not parse or names no single operation. */
function idOfText(query: string, operationName: string | undefined, maxTokens: number): string | null {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens, noLocation: true });
  } catch {
    return null;
  }
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  return operation ? sha256(canonicalText(operation, fragmentMap(document.definitions))) : null;
}

const refusal = (code: string, message: string) => ({
  message,
  extensions: { code, retryable: false, http: { status: 400 } },
});

/**
 * ENGRAM_PERSISTED_ONLY: only the trusted documents of schema/operations run. A client names one
 * by `extensions.persistedQuery.sha256Hash` (the Apollo format), or sends its exact text (any
 * formatting: it is canonicalised and hashed). Anything else is refused before parsing or
 * validation: PERSISTED_QUERY_NOT_FOUND for an unknown hash, PERSISTED_QUERY_REQUIRED otherwise.
 */
export function usePersistedOnly(options: { documents: TrustedDocuments; maxTokens: number }): Plugin[] {
  const { documents } = options;
  const byText: Plugin = {
    onParams({ params, setParams }) {
      if (typeof params.query !== 'string') return;
      const id = idOfText(params.query, params.operationName ?? undefined, options.maxTokens);
      if (id === null || !documents.has(id)) return;
      setParams({
        ...params,
        query: undefined,
        extensions: { ...params.extensions, persistedQuery: { version: 1, sha256Hash: id } },
      });
    },
  };
  const onlyTrusted = usePersistedOperations({
    allowArbitraryOperations: false,
    getPersistedOperation: (id: string) => documents.get(id)?.text ?? null,
    customErrors: {
      notFound: refusal(
        'PERSISTED_QUERY_NOT_FOUND',
        'No trusted operation has this sha256 hash (ENGRAM_PERSISTED_ONLY is on).',
      ),
      persistedQueryOnly: refusal(
        'PERSISTED_QUERY_REQUIRED',
        'This server runs only its trusted operations (ENGRAM_PERSISTED_ONLY): send one by extensions.persistedQuery.sha256Hash, or its exact text.',
      ),
      keyNotFound: refusal(
        'PERSISTED_QUERY_REQUIRED',
        'This server runs only its trusted operations (ENGRAM_PERSISTED_ONLY): send extensions.persistedQuery { version: 1, sha256Hash }.',
      ),
    },
  }) as Plugin;
  return [byText, onlyTrusted];
}
