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

/**
 * What a question says, for weighing associations: its terms (as associationTerms reads a memory)
 * and, among them, its names: the words it capitalises other than at the start of a sentence
 * ("Leo" in "What is the name of Leo's cousin's baby?").
 */
export interface AssociationQuestion {
  terms: ReadonlySet<string>;
  names: ReadonlySet<string>;
}

/** A capitalised word after a space that does not end a sentence. */
const NAME = /(?<=[^\s.!?]\s+)\p{Lu}[\p{L}\p{N}]*/gu;

export function associationQuestion(text: string): AssociationQuestion {
  const terms = new Set(associationTerms({ title: text, content: null, tags: [] }));
  const names = new Set(
    [...text.matchAll(NAME)].map((match) => match[0].toLowerCase()).filter((name) => terms.has(name)),
  );
  return { terms, names };
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
 *
 * Asked with a `question` (a recall's query), an association is what HippoRAG follows: a bridge
 * from a memory the question found to one about the same subject that the question could not find.
 * - The rare term it goes through must not be a word of the question: two memories sharing a word
 *   of the question are what the search that ranked them already counted, and such a "bridge"
 *   mostly reached the same topic in other people's memories ("baby" from Leo's turn to Greta's).
 * - When the question has names, the candidate must hold one of them: the question's names say
 *   whose memory or which project it is about ("Leo's cousin's baby" is in Leo's turns, not in the
 *   other users' turns that share the cousin's name or the question's topic words).
 * - Its weight is the share of the source's term weight *beyond the question* that the two share:
 *   the words of the question are common to all of the source's candidates and say nothing about
 *   which one continues it, so a source that is all question words (and one rare name) hands the
 *   name's holder its activation whole instead of a sliver.
 */
export function associationSteps(
  answer: AssociationCandidates,
  perMemory: number,
  maxShared: number,
  question: AssociationQuestion | null = null,
): AssociationStep[] {
  const asked = question !== null && question.terms.size > 0 ? question : null;
  const inQuestion = (term: string) => asked?.terms.has(term) ?? false;
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
    const mass = [...weightOf].reduce((sum, [term, weight]) => sum + (inQuestion(term) ? 0 : weight), 0);
    if (mass === 0) continue;
    const reached = new Set<TermCandidate>();
    for (const { term, holders } of source.terms) {
      if (holders < 2 || holders > maxShared || inQuestion(term)) continue;
      for (const candidate of holding.get(term) ?? [])
        if (candidate.memoryId !== source.memoryId) reached.add(candidate);
    }
    const ranked = [...reached]
      .filter((candidate) => !asked?.names.size || candidate.terms.some((term) => asked.names.has(term)))
      .map((candidate) => {
        const shared = candidate.terms.filter((term) => weightOf.has(term) && !inQuestion(term));
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
