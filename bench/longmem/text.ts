import { createRng } from '../lib/rng.js';

/**
 * Seeded text helpers for the long-memory generator: one random stream per shape, templates with
 * alternatives, and ids that sort in no meaningful order (so ties broken by id favour no session).
 */
export type Rng = () => number;

/** A deterministic 32-bit hash of strings and numbers (FNV-1a, then murmur3's finaliser). */
export function hash32(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part}\u0000`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  return fmix32(h);
}

/** murmur3's finaliser: a bijection on 32-bit integers, so distinct inputs give distinct outputs. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export const rngFor = (...parts: (string | number)[]): Rng => createRng(hash32(...parts));

export const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(rng() * items.length)] as T;
}

/** Fisher-Yates on a copy. */
export function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** `count` distinct items (fewer when the list is shorter). */
export const sample = <T>(rng: Rng, items: readonly T[], count: number): T[] => shuffle(rng, items).slice(0, count);

/** The extra wordings of the generator's `asks`: how many wordings in all, and the stream they are drawn from. */
export interface Asks {
  count: number;
  rng: Rng;
}

/**
 * The wordings of one question, each with the stream to render it from: `count` templates from the
 * main stream, as `sample` draws them (so the set is what it was before `asks`), then up to
 * `asks.count` in all, rendered from the asks stream.
 */
export function wordings(rng: Rng, asks: Asks, templates: readonly string[], count: number): [string, Rng][] {
  const shuffled = shuffle(rng, templates);
  return [
    ...shuffled.slice(0, count).map((template): [string, Rng] => [template, rng]),
    ...shuffled.slice(count, asks.count).map((template): [string, Rng] => [template, asks.rng]),
  ];
}

/**
 * Draws distinct values from a pool. When it runs dry it throws, or with `recycle` starts over on a
 * fresh shuffle (large sizes then repeat names, as real data does).
 */
export class Pool<T> {
  private left: T[];
  constructor(
    private readonly rng: Rng,
    private readonly items: readonly T[],
    private readonly recycle = false,
  ) {
    this.left = shuffle(rng, items);
  }
  take(): T {
    if (this.left.length === 0 && this.recycle) this.left = shuffle(this.rng, this.items);
    const value = this.left.pop();
    if (value === undefined) throw new Error('pool exhausted: the word lists are too short for this size');
    return value;
  }
}

export type Vars = Record<string, string>;

/** How often a synonym set's first form is used outright (else any form, the first included). */
export const COMMON_WORD_SHARE = 0.5;

/**
 * Renders a template: `[a|b|c]` picks one alternative (not nested; an alternative may hold the
 * other forms), `<name>` picks one surface form of the synonym set `name`, `{name}` is a variable.
 * The statement and the question of a fact are rendered independently, so they share a word only
 * when both happened to pick it: that is what makes a question a paraphrase.
 */
export function render(rng: Rng, template: string, vars: Vars, synonyms: Record<string, readonly string[]>): string {
  let text = template.replace(/\[([^\][]*)\]/g, (_, body: string) => pick(rng, body.split('|')));
  text = text.replace(/<([a-z0-9_-]+)>/g, (_, name: string) => {
    const forms = synonyms[name];
    if (!forms) throw new Error(`unknown synonym set <${name}> in "${template}"`);
    // The first form is the common word: half of the time it is the one used, as people reach
    // for the usual word more often than for any one of its synonyms.
    return rng() < COMMON_WORD_SHARE ? (forms[0] as string) : pick(rng, forms);
  });
  text = text.replace(/\{([a-zA-Z0-9_]+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`unknown variable {${name}} in "${template}"`);
    return value;
  });
  return sentence(text);
}

/** Single spaces, no space before punctuation, a capital first letter. */
export function sentence(text: string): string {
  const tidy = text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?;:%])/g, '$1')
    .replace(/\ba ([aeiouAEIOU])/g, 'an $1')
    .trim();
  return tidy.charAt(0).toUpperCase() + tidy.slice(1);
}

/** An id whose leading hex part orders memories at random, then a readable position. */
export const memoryId = (seed: number, shape: string, index: number, position: string): string =>
  `${fmix32((hash32(seed, shape) ^ index) >>> 0)
    .toString(16)
    .padStart(8, '0')}-${position}`;

export const pad2 = (value: number): string => String(value).padStart(2, '0');
