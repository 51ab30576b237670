/**
 * What the address bar says about the view, so a view can be shared, reloaded and walked back:
 *
 *   /explore?workspace=default#memory=need-acid&path=postgres-choice,audit-trail&hops=3
 *
 * `memory` is the opened memory and `path` the two ends of the shortest path shown, each named by
 * key when the memory has one, else by id (both use a URL-safe alphabet, so they read as typed).
 * `hops` is written only when it is not the default. `recall` is the query of the recall shown and
 * `seed` the memory it started from (`#recall=warmup%20spikes&seed=need-acid`). The workspace stays
 * a query parameter: it picks the data, the fragment picks the view.
 */

export const DEFAULT_MAX_HOPS = 4;

export interface PathLocation {
  from: string;
  to: string;
  maxHops: number;
}

export interface RecallLocation {
  query: string;
  seed: string | null;
}

export interface ExplorerLocation {
  memory: string | null;
  path: PathLocation | null;
  /** Absent and null both mean no recall shown. */
  recall?: RecallLocation | null;
}

export const EMPTY_LOCATION: ExplorerLocation = { memory: null, path: null };

/** Keys and ids are made of these (src/domain/inputs.ts); anything else is percent-encoded. */
const READABLE = /^[A-Za-z0-9_.:/-]+$/;

const encodeRef = (ref: string): string => (READABLE.test(ref) ? ref : encodeURIComponent(ref));

function decodeRef(text: string): string | null {
  try {
    const ref = decodeURIComponent(text).trim();
    return ref === '' ? null : ref;
  } catch {
    return null;
  }
}

function parseHops(text: string | undefined): number {
  const hops = Number(text);
  return Number.isInteger(hops) && hops >= 1 && hops <= 10 ? hops : DEFAULT_MAX_HOPS;
}

/** Reads a fragment (with or without its `#`); unknown or malformed parts are ignored. */
export function parseLocation(hash: string): ExplorerLocation {
  const parts = new Map<string, string>();
  for (const part of hash.replace(/^#/, '').split('&')) {
    const split = part.indexOf('=');
    if (split > 0) parts.set(part.slice(0, split), part.slice(split + 1));
  }
  const memoryText = parts.get('memory');
  const memory = memoryText === undefined ? null : decodeRef(memoryText);
  const ends = parts.get('path')?.split(',');
  const from = ends?.length === 2 ? decodeRef(ends[0] ?? '') : null;
  const to = ends?.length === 2 ? decodeRef(ends[1] ?? '') : null;
  const recall = parseRecall(parts.get('recall'), parts.get('seed'));
  return {
    memory,
    path: from && to ? { from, to, maxHops: parseHops(parts.get('hops')) } : null,
    ...(recall ? { recall } : {}),
  };
}

/** A recall needs words or a seed memory, as the API does. */
function parseRecall(queryText: string | undefined, seedText: string | undefined): RecallLocation | null {
  const query = queryText === undefined ? '' : (decodeRef(queryText) ?? '');
  const seed = seedText === undefined ? null : decodeRef(seedText);
  return query || seed ? { query, seed } : null;
}

/** The fragment for a location, `#` included; '' for the empty location. */
export function formatLocation(location: ExplorerLocation): string {
  const parts: string[] = [];
  if (location.memory) parts.push(`memory=${encodeRef(location.memory)}`);
  if (location.path) {
    parts.push(`path=${encodeRef(location.path.from)},${encodeRef(location.path.to)}`);
    if (location.path.maxHops !== DEFAULT_MAX_HOPS) parts.push(`hops=${location.path.maxHops}`);
  }
  if (location.recall) {
    parts.push(`recall=${encodeRef(location.recall.query)}`);
    if (location.recall.seed) parts.push(`seed=${encodeRef(location.recall.seed)}`);
  }
  return parts.length === 0 ? '' : `#${parts.join('&')}`;
}
