import type { NewMemory } from '../src/domain/types.js';
import type { ImportBatch, ImportEdge } from '../src/store/port.js';
import { createRng, randomInt } from './lib/rng.js';

/**
 * A seeded graph with known answers for recall's quality check. Each case is one question:
 *
 *   hit ──w1──> bridge ──w2──> right          (the answer: two weighted hops from the lexical hit)
 *   hit ──wg──> distractor × N               (one hop, stronger than the chain: wrong answers)
 *   rival                                    (matches the query words, not the hit's neighbourhood)
 *
 * Only `hit` and `rival` contain the query's two words, so search can never return the right
 * memory; recall can, through the chain, and feedback decides whether it beats the distractors.
 * Every case has words of its own, so cases never seed each other. The number of distractors and
 * every weight are drawn per case, so the cases range from easy (one weak distractor) to hard (four
 * that each outweigh the chain).
 */
export interface QualityCase {
  query: string;
  hit: string;
  bridge: string;
  right: string;
  rival: string;
  distractors: string[];
  /** hit→bridge and bridge→right: the right memory's path. */
  chainEdges: string[];
  /** hit→distractor, one per distractor. */
  distractorEdges: string[];
}

export interface QualityGraph {
  batch: ImportBatch;
  cases: QualityCase[];
}

export interface QualitySpec {
  cases: number;
  seed: number;
  /** Most graph distractors per case (each case draws 1..this many). */
  distractors?: number;
  /** Ranges the chain's and the distractors' weights are drawn from. */
  chainWeight?: [number, number];
  distractorWeight?: [number, number];
}

export const QUALITY_DEFAULTS = {
  distractors: 4,
  chainWeight: [0.6, 0.85] as [number, number],
  distractorWeight: [0.3, 0.9] as [number, number],
};

const SYLLABLES = 'ka lo mi ne ru sa to vu ze bi da fo gu hi ja ke'.split(' ');
/** Background words no query uses (queries are made of SYLLABLES only). */
const FILLER = (
  'note draft review meeting ticket outline summary minutes backlog roadmap sketch remark ' +
  'question answer issue change plan idea detail topic'
).split(' ');

export function generateQualityGraph(spec: QualitySpec): QualityGraph {
  const mostDistractors = spec.distractors ?? QUALITY_DEFAULTS.distractors;
  const [chainLow, chainHigh] = spec.chainWeight ?? QUALITY_DEFAULTS.chainWeight;
  const [distractorLow, distractorHigh] = spec.distractorWeight ?? QUALITY_DEFAULTS.distractorWeight;
  const rng = createRng(spec.seed);
  const between = (low: number, high: number) => Math.round((low + rng() * (high - low)) * 1000) / 1000;
  const filler = (count: number) =>
    Array.from({ length: count }, () => FILLER[randomInt(rng, FILLER.length)]).join(' ');
  const used = new Set<string>();
  const word = (): string => {
    for (;;) {
      const candidate = Array.from({ length: 4 }, () => SYLLABLES[randomInt(rng, SYLLABLES.length)]).join('');
      if (!used.has(candidate)) {
        used.add(candidate);
        return candidate;
      }
    }
  };
  const memories: NewMemory[] = [];
  const edges: ImportEdge[] = [];
  const memory = (title: string, content: string): string => {
    const id = qualityId(spec.seed, 1, memories.length);
    memories.push({ id, key: null, title, content, kind: 'note', tags: [], weight: 0.5, metadata: null });
    return id;
  };
  const edge = (fromId: string, toId: string, type: string, weight: number): string => {
    const id = qualityId(spec.seed, 2, edges.length);
    edges.push({ id, fromId, toId, type, weight, metadata: null });
    return id;
  };

  const cases: QualityCase[] = [];
  for (let index = 0; index < spec.cases; index++) {
    const [first, second] = [word(), word()];
    const hit = memory(`${first} ${second} ${filler(2)}`, `${filler(6)} ${first} ${second}`);
    // Both words in the content only, so the hit (both in its title) ranks first on either store's full-text scoring.
    const rival = memory(`${filler(3)} (rival ${index})`, `${second} ${filler(8)} ${first}`);
    const bridge = memory(`${filler(3)} (bridge ${index})`, filler(10));
    const right = memory(`${filler(3)} (answer ${index})`, filler(10));
    const chainEdges = [
      edge(hit, bridge, 'CAUSED_BY', between(chainLow, chainHigh)),
      edge(bridge, right, 'CAUSED_BY', between(chainLow, chainHigh)),
    ];
    const distractors: string[] = [];
    const distractorEdges: string[] = [];
    const distractorCount = 1 + randomInt(rng, mostDistractors);
    for (let other = 0; other < distractorCount; other++) {
      const distractor = memory(`${filler(3)} (distractor ${index}.${other})`, filler(10));
      distractors.push(distractor);
      distractorEdges.push(edge(hit, distractor, 'RELATED_TO', between(distractorLow, distractorHigh)));
    }
    // The rival's own neighbourhood, weakly linked, so its activation goes somewhere as a real seed's would.
    const aside = memory(`${filler(3)} (aside ${index})`, filler(10));
    edge(rival, aside, 'RELATED_TO', between(0.1, 0.3));
    cases.push({ query: `${first} ${second}`, hit, bridge, right, rival, distractors, chainEdges, distractorEdges });
  }
  return { batch: { memories, edges }, cases };
}

/** A UUIDv7-shaped id from the seed, a kind (memory or edge) and an index: same seed, same ids. */
function qualityId(seed: number, kind: number, index: number): string {
  const rng = createRng((seed ^ Math.imul(kind * 100_003 + index + 1, 0x9e3779b1)) >>> 0);
  const hex = (value: number, digits: number) => Math.floor(value).toString(16).padStart(digits, '0');
  const time = hex(0x19000000000 + kind * 0x1000000 + index, 12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${hex(rng() * 0x1000, 3)}-${hex(0x8000 + rng() * 0x4000, 4)}-${hex(rng() * 0x1000000, 6)}${hex(rng() * 0x1000000, 6)}`;
}
