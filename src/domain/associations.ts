/**
 * Associations: memories linked through the rare terms and names they share (docs/recall.md).
 *
 * At write time a memory's text gives its index terms (associationTerms), which the store keeps
 * beside it: derived data, rebuilt from the text, never exported. At recall the store answers,
 * for a memory, which other memories hold each of its terms, as long as the term is rare (held by
 * at most `maxShared` memories); associationSteps turns those answers into weighted steps. No
 * language model, no vocabulary to train: a name like "Cyrus" that appears in three memories links
 * them, a word every other memory uses links nothing.
 */

/** Most terms one memory is indexed under: a long text costs the write path a bounded number of rows. */
export const MAX_TERMS_PER_MEMORY = 24;

/** Shorter words are mostly function words and abbreviations, and as terms they would link at random. */
const MIN_TERM_LENGTH = 3;

/** Longer "words" are ids, hashes or URLs run together: they link copies, not subjects. */
const MAX_TERM_LENGTH = 40;

/**
 * Words too common to be worth a row. The document-frequency ceiling would discard them anyway at
 * read time; leaving them out keeps them from taking a memory's MAX_TERMS_PER_MEMORY places.
 */
const STOPWORDS = new Set(
  (
    'the and for are but not you your yours all any can had her hers was one our out has have him his how its ' +
    'may new now old see two way who did does doing done get got let put say she too use that this these those ' +
    'with from into onto over under then than them they their there here what when where which while whom whose ' +
    'why will would could should shall might must been being were about above after again against also because ' +
    'before below between both down during each few further just more most much only other same some such very ' +
    'off once own yes yeah okay sure thanks thank really just like well still even ever every anything something ' +
    'nothing everything someone anyone everyone going gonna want wanted know knew think thought make made take ' +
    'took come came back good great nice lot lots thing things today yesterday tomorrow week weeks day days ' +
    'time times year years last next first need needs needed feel felt look looks looked tell told said says'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;
const CAPITALISED = /^\p{Lu}/u;

/**
 * The terms a memory is indexed under: the distinct words of its title, content and tags,
 * lower-cased, at least MIN_TERM_LENGTH long, without stop words. When there are more than
 * MAX_TERMS_PER_MEMORY, names (capitalised words) come first, then longer words: both are rarer
 * on average, and rarity is what makes a term link anything. Sorted, so the same text always gives
 * the same rows.
 */
export function associationTerms(memory: { title: string; content: string | null; tags: readonly string[] }): string[] {
  const found = new Map<string, boolean>();
  const text = [memory.title, memory.content ?? '', ...memory.tags].join(' \n ');
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    if (word.length < MIN_TERM_LENGTH || word.length > MAX_TERM_LENGTH) continue;
    const term = word.toLowerCase();
    if (STOPWORDS.has(term) || /^\d+$/.test(term)) continue;
    found.set(term, (found.get(term) ?? false) || CAPITALISED.test(word));
  }
  const terms = [...found.keys()];
  if (terms.length <= MAX_TERMS_PER_MEMORY) return terms.sort();
  return terms
    .sort((a, b) => Number(found.get(b)) - Number(found.get(a)) || b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_TERMS_PER_MEMORY)
    .sort();
}

/** A memory's terms with how many memories of the workspace hold each, counted up to `maxShared + 1`. */
export interface TermSource {
  memoryId: string;
  terms: { term: string; holders: number }[];
}

/** Another memory that holds a rare term of a source, with all of its terms. */
export interface TermCandidate {
  memoryId: string;
  terms: string[];
}

/** What the store answers (GraphStore.associationCandidates). */
export interface AssociationCandidates {
  /** The memories asked about that have terms, in the order asked. */
  sources: TermSource[];
  /** The memories that hold a rare term (2 to maxShared holders) of a source; each once. */
  candidates: TermCandidate[];
  /** The budget ran out: some candidates are missing. */
  truncated: boolean;
}

/** One association of a memory: another memory, how strongly they are linked, and by which terms. */
export interface AssociationStep {
  from: string;
  to: string;
  /** 0..1: the share of `from`'s term weight (inverse document frequency) that `to` shares. */
  weight: number;
  /** The shared terms, rarest first (then alphabetical). */
  terms: string[];
}

/**
 * How much a term held by `holders` memories says, as an inverse document frequency relative to
 * the ceiling: log2(2 (maxShared + 1) / holders), so a term two memories share weighs about
 * log2(maxShared), and every term past the ceiling weighs 1. Relative to the ceiling because the
 * ceiling is what says "common" here; the workspace's size would make every weight drift as it grows.
 */
export function termWeight(holders: number, maxShared: number): number {
  return Math.log2((2 * (maxShared + 1)) / Math.min(Math.max(holders, 1), maxShared + 1));
}

/**
 * The strongest `perMemory` associations of each source. A candidate is found through a rare term
 * (held by 2 to maxShared memories: the ceiling keeps a common word from linking everything), and
 * weighed by everything the two share: the term weight of the terms they have in common over the
 * term weight of all the source's terms. So a name two memories share links them, and links them
 * more when they also share their context (a project, a person, a place: terms too common to find
 * anything by themselves), less when the name is the one thing a long text has in common with it.
 * Ordered per source by weight, then memory id.
 */
export function associationSteps(
  answer: AssociationCandidates,
  perMemory: number,
  maxShared: number,
): AssociationStep[] {
  const holding = new Map<string, TermCandidate[]>();
  for (const candidate of answer.candidates) {
    for (const term of candidate.terms) {
      const list = holding.get(term);
      if (list) list.push(candidate);
      else holding.set(term, [candidate]);
    }
  }
  const steps: AssociationStep[] = [];
  for (const source of answer.sources) {
    const weightOf = new Map(source.terms.map((entry) => [entry.term, termWeight(entry.holders, maxShared)]));
    const holdersOf = new Map(source.terms.map((entry) => [entry.term, entry.holders]));
    const mass = [...weightOf.values()].reduce((sum, weight) => sum + weight, 0);
    const reached = new Set<TermCandidate>();
    for (const { term, holders } of source.terms) {
      if (holders < 2 || holders > maxShared) continue;
      for (const candidate of holding.get(term) ?? [])
        if (candidate.memoryId !== source.memoryId) reached.add(candidate);
    }
    const ranked = [...reached]
      .map((candidate) => {
        const shared = candidate.terms.filter((term) => weightOf.has(term));
        const weight = shared.reduce((sum, term) => sum + (weightOf.get(term) as number), 0) / mass;
        const terms = shared
          .filter((term) => (holdersOf.get(term) as number) <= maxShared)
          .sort((a, b) => (holdersOf.get(a) as number) - (holdersOf.get(b) as number) || (a < b ? -1 : a > b ? 1 : 0));
        return { from: source.memoryId, to: candidate.memoryId, weight: Math.min(1, weight), terms };
      })
      .sort((a, b) => b.weight - a.weight || (a.to < b.to ? -1 : a.to > b.to ? 1 : 0))
      .slice(0, perMemory);
    steps.push(...ranked);
  }
  return steps;
}
