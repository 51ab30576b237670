import { planDialogue } from './dialogue.js';
import { planNotes } from './notes.js';
import { type Asks, hash32, memoryId, pad2, type Rng, rngFor, shuffle } from './text.js';

/**
 * A seeded long-memory data set with known answers, in two shapes:
 *
 * - `dialogue`: multi-session conversations between a user and an assistant; every turn is a
 *   memory (`<speaker>: <text>`), consecutive turns of a session are linked FOLLOWED_BY 0.5.
 * - `notes`: work and research notes across projects, one memory per note (title and body);
 *   consecutive notes of a day are linked FOLLOWED_BY 0.5, and some notes link back to the note
 *   they follow up (RELATED_TO 0.5) or replace (SUPERSEDES 0.5), as a note-taker would.
 *
 * Facts are planted in specific memories; each question carries the ids of its evidence memories
 * and a kind (see QuestionKind). Statements and questions are rendered independently from the same
 * synonym sets, so a question shares some of its words with its evidence, not all. The same
 * (shape, seed, scale) always gives the same set, ids included.
 */
export type Shape = 'dialogue' | 'notes';
export const SHAPES: readonly Shape[] = ['dialogue', 'notes'];

/**
 * - `single-hop`: one evidence memory, paraphrased;
 * - `multi-hop`: two or more evidence memories in different sessions (an entity introduced in one,
 *   its attribute in another); the question names only the first side;
 * - `update`: a later memory changed an earlier fact; the evidence is the later one only;
 * - `distractor`: one evidence memory among many that share the question's topic words.
 */
export type QuestionKind = 'single-hop' | 'multi-hop' | 'update' | 'distractor';
export const QUESTION_KINDS: readonly QuestionKind[] = ['single-hop', 'multi-hop', 'update', 'distractor'];

export interface LongMemMemory {
  id: string;
  title: string;
  content: string | null;
  kind: string;
  tags: string[];
  metadata: { group: string; session: number; position: number; speaker?: string };
}

export interface LongMemEdge {
  from: string;
  to: string;
  type: string;
  weight: number;
}

export interface LongMemQuestion {
  id: string;
  kind: QuestionKind;
  text: string;
  /** Memory ids, in the order the facts were stated. */
  evidence: string[];
  /** The planted answer, for reading the data; no metric uses it. */
  answer: string;
  /** Which fact template the question came from (`pet`, `update:job`, `multi:owner-leave` ...). */
  fact: string;
  /** The conversation or project it is about. */
  group: string;
}

export interface LongMemSet {
  shape: Shape;
  seed: number;
  scale: number;
  asks: number;
  memories: LongMemMemory[];
  edges: LongMemEdge[];
  questions: LongMemQuestion[];
}

export interface GenerateOptions {
  shape: Shape;
  seed: number;
  /** Multiplies the number of conversations (dialogue) or projects (notes); 1 gives 2,000-6,000 memories. */
  scale?: number;
  /**
   * Ask every question in at least this many wordings (as many as its fact has templates), so that
   * more questions share their evidence with another question. 1 (the default) is the set as
   * described; the extra wordings come from a random stream of their own, so the memories, edges
   * and the default questions stay exactly what they are at 1.
   */
  asks?: number;
}

// ---------------------------------------------------------------------------------------------
// What a shape plans: groups (conversations, projects) of sessions (sittings, days) of events.

/** One memory to be. `handle` names it for questions and extra edges. */
export interface PlannedItem {
  title: string;
  content: string | null;
  kind: string;
  speaker?: string;
  handle?: string;
}

/** Items that stay together, in order, in one session (a user turn and the assistant's reply). */
export interface PlannedEvent {
  session: number;
  items: PlannedItem[];
}

export interface PlannedQuestion {
  kind: QuestionKind;
  text: string;
  evidence: string[];
  answer: string;
  fact: string;
}

export interface PlannedGroup {
  name: string;
  tag: string;
  sessions: number;
  events: PlannedEvent[];
  /** Items of one filler event for session `session` (chit-chat, stand-up notes ...). */
  filler(rng: Rng, session: number): PlannedItem[];
  /** How many events a session holds at least (fillers make up the rest). */
  sessionEvents(rng: Rng, session: number): number;
  /** Optional first and last events of a session (a greeting, a goodbye). */
  opener?(rng: Rng, session: number): PlannedItem[] | null;
  closer?(rng: Rng, session: number): PlannedItem[] | null;
  /** Edges between handles besides FOLLOWED_BY. */
  links: { from: string; to: string; type: string; weight: number }[];
  questions: PlannedQuestion[];
}

export const FOLLOWED_BY_WEIGHT = 0.5;

export function generateLongMem(options: GenerateOptions): LongMemSet {
  const scale = options.scale ?? 1;
  if (!(scale > 0)) throw new Error('scale must be > 0');
  const asks = options.asks ?? 1;
  if (!Number.isInteger(asks) || asks < 1) throw new Error('asks must be an integer >= 1');
  const { shape, seed } = options;
  const rng = rngFor('longmem', shape, seed);
  const extra: Asks = { count: asks, rng: rngFor('longmem-asks', shape, seed) };
  const groups = shape === 'dialogue' ? planDialogue(rng, scale, extra) : planNotes(rng, scale, extra);
  return { ...assemble(shape, seed, scale, rng, groups), asks };
}

function assemble(
  shape: Shape,
  seed: number,
  scale: number,
  rng: Rng,
  groups: PlannedGroup[],
): Omit<LongMemSet, 'asks'> {
  const memories: LongMemMemory[] = [];
  const edges: LongMemEdge[] = [];
  const byHandle = new Map<string, string>();
  const questions: LongMemQuestion[] = [];
  const prefix = shape === 'dialogue' ? ['c', 's', 't'] : ['p', 'd', 'n'];
  groups.forEach((group, groupIndex) => {
    for (let session = 0; session < group.sessions; session++) {
      const placed = group.events.filter((event) => event.session === session);
      const wanted = group.sessionEvents(rng, session);
      const fillers: PlannedItem[][] = [];
      for (let i = placed.length; i < wanted; i++) fillers.push(group.filler(rng, session));
      const middle = shuffle(rng, [...placed.map((event) => event.items), ...fillers]);
      const opener = group.opener?.(rng, session);
      const closer = group.closer?.(rng, session);
      const items = [...(opener ? [opener] : []), ...middle, ...(closer ? [closer] : [])].flat();
      let previous: string | null = null;
      items.forEach((item, position) => {
        const id = memoryId(
          seed,
          shape,
          memories.length,
          `${prefix[0]}${pad2(groupIndex + 1)}-${prefix[1]}${pad2(session + 1)}-${prefix[2]}${pad2(position + 1)}`,
        );
        memories.push({
          id,
          title: item.title,
          content: item.content,
          kind: item.kind,
          tags: [shape, group.tag],
          metadata: {
            group: group.name,
            session: session + 1,
            position: position + 1,
            ...(item.speaker ? { speaker: item.speaker } : {}),
          },
        });
        if (item.handle) {
          if (byHandle.has(item.handle)) throw new Error(`handle ${item.handle} used twice`);
          byHandle.set(item.handle, id);
        }
        if (previous) edges.push({ from: previous, to: id, type: 'FOLLOWED_BY', weight: FOLLOWED_BY_WEIGHT });
        previous = id;
      });
    }
    const resolve = (handle: string): string => {
      const id = byHandle.get(handle);
      if (!id) throw new Error(`handle ${handle} was never placed (group ${group.name})`);
      return id;
    };
    for (const link of group.links) edges.push({ ...link, from: resolve(link.from), to: resolve(link.to) });
    for (const question of group.questions) {
      questions.push({
        id: '',
        kind: question.kind,
        text: question.text,
        evidence: question.evidence.map(resolve),
        answer: question.answer,
        fact: question.fact,
        group: group.name,
      });
    }
  });
  // Questions in a seeded order (not grouped by conversation), numbered in that order.
  const ordered = shuffle(rng, questions).map((question, index) => ({
    ...question,
    id: `q-${shape}-${String(index + 1).padStart(4, '0')}`,
  }));
  return { shape, seed, scale, memories, edges, questions: ordered };
}

/**
 * The learning-gain split: a seeded half of the questions to train on (feedback), the other half
 * to measure. Every kind is split on its own, so both halves hold each kind in the same share.
 */
export function splitQuestions(
  questions: readonly LongMemQuestion[],
  seed: number,
): { train: LongMemQuestion[]; test: LongMemQuestion[] } {
  const train: LongMemQuestion[] = [];
  const test: LongMemQuestion[] = [];
  for (const kind of QUESTION_KINDS) {
    const ofKind = questions.filter((question) => question.kind === kind);
    const rng = rngFor('split', seed, kind);
    const shuffled = shuffle(rng, ofKind);
    const half = Math.floor(shuffled.length / 2);
    train.push(...shuffled.slice(0, half));
    test.push(...shuffled.slice(half));
  }
  const byId = (a: LongMemQuestion, b: LongMemQuestion) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { train: train.sort(byId), test: test.sort(byId) };
}

/** A short fingerprint of a set (for "same seed, same set" checks and the report header). */
export function fingerprint(set: LongMemSet): string {
  const parts: (string | number)[] = [];
  for (const memory of set.memories) parts.push(memory.id, memory.title, memory.content ?? '');
  for (const edge of set.edges) parts.push(edge.from, edge.to, edge.type, edge.weight);
  for (const question of set.questions) parts.push(question.id, question.text, question.evidence.join(','));
  return hash32(...parts)
    .toString(16)
    .padStart(8, '0');
}

/** Counts for the report header. */
export function describeSet(set: LongMemSet): {
  memories: number;
  edges: Record<string, number>;
  questions: Record<QuestionKind, number>;
  groups: number;
} {
  const edges: Record<string, number> = {};
  for (const edge of set.edges) edges[edge.type] = (edges[edge.type] ?? 0) + 1;
  const questions = Object.fromEntries(QUESTION_KINDS.map((kind) => [kind, 0])) as Record<QuestionKind, number>;
  for (const question of set.questions) questions[question.kind]++;
  return {
    memories: set.memories.length,
    edges,
    questions,
    groups: new Set(set.memories.map((memory) => memory.metadata.group)).size,
  };
}
