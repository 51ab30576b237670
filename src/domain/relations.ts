/** The known relation vocabulary. The vocabulary is open: any valid UPPER_SNAKE type is allowed unless strict. */
export interface RelationTypeInfo {
  name: string;
  description: string;
  inverse: string | null;
}

export const RELATION_TYPE_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

export const KNOWN_RELATION_TYPES: readonly RelationTypeInfo[] = [
  { name: 'CAUSED_BY', description: 'The source memory happened or holds because of the target.', inverse: 'CAUSES' },
  {
    name: 'CONTRADICTS',
    description: 'The source memory is evidence against, or incompatible with, the target.',
    inverse: 'CONTRADICTED_BY',
  },
  {
    name: 'SUPERSEDES',
    description: 'The source memory is a newer version that replaces the target.',
    inverse: 'SUPERSEDED_BY',
  },
  { name: 'RELATED_TO', description: 'A loose association without a stronger meaning.', inverse: 'RELATED_TO' },
  {
    name: 'RECALLED_WITH',
    description:
      'Learned: the target memory was used when a recall matched the source by its words (USED feedback by recallId creates and strengthens these).',
    inverse: 'RECALLED_WITH',
  },
  {
    name: 'VALIDATES',
    description: 'The source memory (an experiment, a result) is evidence for the target.',
    inverse: 'VALIDATED_BY',
  },
  {
    name: 'TESTS_HYPOTHESIS',
    description: 'The source experiment was designed to test the target hypothesis.',
    inverse: 'TESTED_BY',
  },
  { name: 'EXTENDS', description: 'The source builds on the target and adds to it.', inverse: 'EXTENDED_BY' },
  {
    name: 'INSPIRED_BY',
    description: 'The source idea came from the target without depending on it.',
    inverse: 'INSPIRED',
  },
  {
    name: 'USES_DATA_FROM',
    description: 'The source uses data produced or described by the target.',
    inverse: 'PROVIDES_DATA_FOR',
  },
  {
    name: 'FORMALIZES',
    description: 'The source states the target precisely (a model, a proof, a specification).',
    inverse: 'FORMALIZED_BY',
  },
  { name: 'SPAWNED_FROM', description: 'The source was started as an offshoot of the target.', inverse: 'SPAWNED' },
  { name: 'CITES', description: 'The source refers to the target as a reference.', inverse: 'CITED_BY' },
  {
    name: 'REPLICATES',
    description: 'The source repeats the target study independently and agrees with it.',
    inverse: 'REPLICATED_BY',
  },
  {
    name: 'REPRODUCES',
    description: 'The source reran the target with its own materials and got the same result.',
    inverse: 'REPRODUCED_BY',
  },
  {
    name: 'FAILS_TO_REPRODUCE',
    description: 'The source reran the target and did not get the same result.',
    inverse: 'NOT_REPRODUCED_BY',
  },
  { name: 'USES_ASSUMPTION', description: 'The source depends on the target being true.', inverse: 'ASSUMED_BY' },
];

const KNOWN_NAMES: ReadonlySet<string> = new Set(KNOWN_RELATION_TYPES.map((type) => type.name));

export const isKnownRelationType = (name: string): boolean => KNOWN_NAMES.has(name);

/** `caused_by`, `Caused By` and `caused-by` all become `CAUSED_BY`; the result still has to pass the pattern. */
export const normaliseRelationType = (raw: string): string =>
  raw
    .trim()
    .replace(/[\s-]+/g, '_')
    .toUpperCase();
