import { createRequire } from 'node:module';
import { isInt } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { KNOWN_RELATION_TYPES, RELATION_TYPE_PATTERN } from '../../src/domain/relations.js';
import { cypher } from './all-statements.js';
import type { CapturedStatement } from './recording-driver.js';

// ---- the catalog: every statement text cypher/ can produce --------------------------------------

const DIRECTIONS = ['OUTGOING', 'INCOMING', 'BOTH'] as const;
const FILTERS = [false, true].flatMap((edgeId) =>
  [false, true].flatMap((memoryId) =>
    [false, true].flatMap((source) => [false, true].map((after) => ({ edgeId, memoryId, source, after }))),
  ),
);

/**
 * Every export of the Cypher modules (all-statements.ts) that is a statement, with every variant its builder can produce
 * (relation types are the only free part; they are normalised away by `shapeOf`). A test checks
 * that this list names every export, so a new statement cannot skip the lint.
 */
export const CATALOG: Record<string, readonly string[]> = {
  PING: [cypher.PING],
  SERVER_COMPONENTS: [cypher.SERVER_COMPONENTS],
  SCHEMA: cypher.SCHEMA.map((entry) => entry.text),
  AWAIT_INDEXES: [cypher.AWAIT_INDEXES],
  MIGRATIONS_DONE: [cypher.MIGRATIONS_DONE],
  MARK_MIGRATION_DONE: [cypher.MARK_MIGRATION_DONE],
  MIGRATIONS: cypher.MIGRATIONS.map((entry) => entry.text),
  GET_MEMORIES: [cypher.GET_MEMORIES],
  GET_EDGES: [cypher.GET_EDGES],
  adjacentEdges: DIRECTIONS.flatMap((direction) =>
    [false, true].flatMap((paged) => [false, true].map((typed) => cypher.adjacentEdges(direction, paged, typed))),
  ),
  getMemoriesWithAdjacent: DIRECTIONS.flatMap((direction) =>
    [false, true].map((typed) => cypher.getMemoriesWithAdjacent(direction, typed)),
  ),
  countAdjacent: DIRECTIONS.map(cypher.countAdjacent),
  expandFrontier: DIRECTIONS.map(cypher.expandFrontier),
  expandFrontierCapped: DIRECTIONS.map(cypher.expandFrontierCapped),
  FIND_EDGE: [cypher.FIND_EDGE],
  EDGES_AMONG: [cypher.EDGES_AMONG],
  EDGES_BETWEEN: [cypher.EDGES_BETWEEN],
  SEARCH_MEMORIES: [cypher.SEARCH_MEMORIES],
  LIST_MEMORIES_BY_TAGS: [cypher.LIST_MEMORIES_BY_TAGS],
  LIST_MEMORIES_BY_TAGS_AFTER: [cypher.LIST_MEMORIES_BY_TAGS_AFTER],
  LIST_MEMORIES_BY_KINDS: [cypher.LIST_MEMORIES_BY_KINDS],
  LIST_MEMORIES_BY_KINDS_AFTER: [cypher.LIST_MEMORIES_BY_KINDS_AFTER],
  LISTING_CUT_BY_TAGS: [cypher.LISTING_CUT_BY_TAGS],
  LISTING_CUT_BY_TAGS_AFTER: [cypher.LISTING_CUT_BY_TAGS_AFTER],
  LISTING_CUT_BY_KINDS: [cypher.LISTING_CUT_BY_KINDS],
  LISTING_CUT_BY_KINDS_AFTER: [cypher.LISTING_CUT_BY_KINDS_AFTER],
  listWeightEvents: FILTERS.map(cypher.listWeightEvents),
  GET_EDGE_HISTORIES: [cypher.GET_EDGE_HISTORIES],
  GET_WEIGHT_EVENTS: [cypher.GET_WEIGHT_EVENTS],
  listEdgesByType: [
    cypher.listEdgesByType(['CONTRADICTS'], false),
    cypher.listEdgesByType(['CONTRADICTS', 'FAILS_TO_REPRODUCE'], true),
  ],
  rankTargetsBySources: [
    cypher.rankTargetsBySources(['VALIDATES']),
    cypher.rankTargetsBySources(['VALIDATES', 'REPLICATES']),
    cypher.rankTargetsBySources(['VALIDATES'], true),
  ],
  LIST_MEMORIES: [cypher.LIST_MEMORIES],
  LIST_EDGES: [cypher.LIST_EDGES],
  CREATE_MEMORY: [cypher.CREATE_MEMORY],
  UPDATE_MEMORY: [cypher.UPDATE_MEMORY],
  DELETE_MEMORY: [cypher.DELETE_MEMORY],
  LINK_PREPARE: [cypher.LINK_PREPARE],
  linkCreate: [cypher.linkCreate('CAUSED_BY')],
  LINK_CONFIRM: [cypher.LINK_CONFIRM],
  unlinkEdge: [cypher.unlinkEdge('id'), cypher.unlinkEdge('triple')],
  APPLY_EDGE_WEIGHTS: [cypher.APPLY_EDGE_WEIGHTS],
  APPLY_MEMORY_WEIGHTS: [cypher.APPLY_MEMORY_WEIGHTS],
  IMPORT_MEMORIES: [cypher.IMPORT_MEMORIES],
  importEdges: [cypher.importEdges('CAUSED_BY')],
  PURGE_RECALLS: [cypher.PURGE_RECALLS],
  CREATE_RECALL: [cypher.CREATE_RECALL],
  GET_RECALL: [cypher.GET_RECALL],
  LIST_RECALLS: [cypher.LIST_RECALLS],
  LIST_RECALLS_AFTER: [cypher.LIST_RECALLS_AFTER],
  DELETE_SAME_RECALL_CUE: [cypher.DELETE_SAME_RECALL_CUE],
  CREATE_RECALL_CUE: [cypher.CREATE_RECALL_CUE],
  TRIM_RECALL_CUES: [cypher.TRIM_RECALL_CUES],
  DELETE_RECALL_CUE: [cypher.DELETE_RECALL_CUE],
  FIND_RECALL_CUES: [cypher.FIND_RECALL_CUES],
  PURGE_SEARCH_PAGES: [cypher.PURGE_SEARCH_PAGES],
  CREATE_SEARCH_PAGES: [cypher.CREATE_SEARCH_PAGES],
  GET_SEARCH_PAGES: [cypher.GET_SEARCH_PAGES],
  REPLACE_TERMS: [cypher.REPLACE_TERMS],
  TERM_HOLDERS: [cypher.TERM_HOLDERS],
  TERMS_OF: [cypher.TERMS_OF],
  createVectorIndex: [cypher.createVectorIndex(768)],
  AWAIT_VECTOR_INDEX: [cypher.AWAIT_VECTOR_INDEX],
  VECTOR_DIMENSIONS: [cypher.VECTOR_DIMENSIONS],
  CLAIM_VECTOR_DIMENSIONS: [cypher.CLAIM_VECTOR_DIMENSIONS],
  EMBEDDABLE_MEMORIES: [cypher.EMBEDDABLE_MEMORIES],
  storeVectors: [cypher.storeVectors(768)],
  HAS_VECTORS: [cypher.HAS_VECTORS],
  NEAREST_VECTORS: [cypher.NEAREST_VECTORS],
  QUEUED_MEMORIES: [cypher.QUEUED_MEMORIES],
  NEXT_QUEUED_WORKSPACE: [cypher.NEXT_QUEUED_WORKSPACE],
};

/** Exports of the Cypher modules (all-statements.ts) that are not statements. */
export const NOT_STATEMENTS: readonly string[] = [
  'relationshipType',
  'FULLTEXT_INDEX',
  'MEMORY_BY_REF',
  'replaceTagsOf',
  'vectorDimensions',
  'vectorIndexName',
  'SEARCH_TIERS',
];

export const catalogTexts = (): string[] => Object.values(CATALOG).flat();

/** Every catalog statement with a label naming it (its export, its place, and its first line), for it.each. */
export const catalogEntries = (): { label: string; text: string }[] =>
  Object.entries(CATALOG).flatMap(([exportName, texts]) => entriesOf(exportName, texts));

const entriesOf = (exportName: string, texts: readonly string[]): { label: string; text: string }[] =>
  texts.map((text, index) => ({
    label: `${exportName}${texts.length > 1 ? ` #${index + 1}` : ''} (${text.split('\n')[0]})`,
    text,
  }));

/**
 * The statement with every spliced relation type replaced by `TYPE`, and every spliced vector length
 * by `N`: equal shapes mean equal text up to types and lengths.
 */
export function shapeOf(text: string): string {
  return text
    .replace(/`[A-Z][A-Z0-9_]{0,63}`/g, '`TYPE`')
    .replace(/`TYPE`(\|`TYPE`)+/g, '`TYPE`')
    .replace(/_d\d+\b/g, '_dN')
    .replace(/(`vector\.dimensions`: )\d+/g, '$1N');
}

// ---- user values never in statement text --------------------------------------------------------

/** Every string inside a parameter value (nested lists and maps included). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (isInt(value)) return [];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * The parameter values that also appear in the statement's text. A relation type may appear only
 * in its validated, backtick-quoted form (the one splice Cypher forces on relationship creation).
 * Strings shorter than 3 characters are skipped: they occur in any text by chance.
 */
export function valuesInText(statement: Pick<CapturedStatement, 'text' | 'parameters'>): string[] {
  const leaks = new Set<string>();
  for (const value of stringsIn(statement.parameters)) {
    if (value.length < 3) continue;
    let text = statement.text;
    if (RELATION_TYPE_PATTERN.test(value)) text = text.split(`\`${value}\``).join('');
    if (occursAsWhole(text, value)) leaks.add(value);
  }
  return [...leaks];
}

/**
 * Whether `value` occurs in `text` not glued to identifier characters: a spliced value appears
 * whole, while a short word like `revert` inside the variable `reverted` is a coincidence.
 */
function occursAsWhole(text: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`).test(text);
}

// ---- Neo4j's own linter ---------------------------------------------------------------------------

export interface Diagnostic {
  severity?: number;
  message: string;
  range: { start: { line: number; character: number } };
}

interface LanguageSupport {
  lintCypherQuery(query: string, schema: Record<string, unknown>): Diagnostic[];
  testData: { mockSchema: { functions: Record<string, unknown>; procedures: Record<string, unknown> } };
}

/**
 * @neo4j-cypher/language-support 2.0.0-next.20. Its ESM build imports its own files without file
 * extensions, which Node's ESM loader rejects (ERR_MODULE_NOT_FOUND), so the package is loaded
 * through its CommonJS bundle, which works on Node 20.
 */
const languageSupport = createRequire(import.meta.url)('@neo4j-cypher/language-support') as LanguageSupport;

export type CypherVersion = 'CYPHER 5' | 'CYPHER 25';

/**
 * Lints one statement as the given Cypher version: ANTLR syntax check, Neo4j's semantic analysis
 * (the Cypher front end compiled to JavaScript: variable scoping, types, clause rules), parameter
 * presence (every `$name` must be among `parameters`), and procedure and function signatures
 * checked against the package's recorded Neo4j catalogue (`testData.mockSchema`).
 */
export function lintCypher(
  text: string,
  parameters: Record<string, unknown>,
  version: CypherVersion = 'CYPHER 5',
): Diagnostic[] {
  return languageSupport.lintCypherQuery(text, {
    defaultLanguage: version,
    functions: languageSupport.testData.mockSchema.functions,
    procedures: languageSupport.testData.mockSchema.procedures,
    labels: [
      'Memory',
      'EdgeRef',
      'WeightEvent',
      'Recall',
      'SearchPages',
      'MemoryVector',
      'VectorSpace',
      'MemoryTerm',
      'MemoryTag',
      'RecallCue',
      'EngramMigration',
    ],
    relationshipTypes: [...KNOWN_RELATION_TYPES.map((type) => type.name), ...relationshipTypesIn(text)],
    parameters,
  });
}

function relationshipTypesIn(text: string): string[] {
  return [...text.matchAll(/`([A-Z][A-Z0-9_]{0,63})`/g)].map((match) => match[1] as string);
}

/** Parameters for a catalog statement: every `$name` it mentions, declared (the values do not matter to the linter). */
export function declaredParameters(text: string): Record<string, unknown> {
  return Object.fromEntries([...text.matchAll(/\$(\w+)/g)].map((match) => [match[1], null]));
}

export const describeDiagnostics = (diagnostics: readonly Diagnostic[]): string[] =>
  diagnostics.map(
    (d) =>
      `${d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : `severity ${d.severity}`} at ${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`,
  );

/**
 * The statements `npm test` lints: the schema and migrations whole, and of every other export its
 * longest variant, which holds the most of its optional parts (after, types, direction). The Cypher
 * front end takes about a millisecond per character (a minute for the whole catalog on 2 cores), so
 * every variant is linted in `npm run test:full`, which CI runs.
 */
export const catalogSample = (): { label: string; text: string }[] =>
  Object.entries(CATALOG).flatMap(([exportName, texts]) => {
    const entries = entriesOf(exportName, texts);
    if (WHOLE_IN_SAMPLE.includes(exportName)) return entries;
    return [entries.reduce((best, entry) => (entry.text.length > best.text.length ? entry : best))];
  });

/** Exports linted whole in the sample: their variants are different statements, not options of one. */
const WHOLE_IN_SAMPLE: readonly string[] = ['SCHEMA', 'MIGRATIONS'];

/** The catalog statements given (all of them by default), as `version`, parse and lint with no diagnostics. */
export function describeCatalogLint(
  version: CypherVersion,
  entries = catalogEntries(),
  title = `every catalog statement as ${version}`,
): void {
  describe(title, () => {
    it.each(entries)('$label parses and lints with no diagnostics', ({ text }) => {
      expect(describeDiagnostics(lintCypher(text, declaredParameters(text), version))).toEqual([]);
    });
  });
}
