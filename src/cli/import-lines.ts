import { describeIssues, type EdgeLineValue, GraphLine, type MemoryLineValue } from '../domain/graph-records.js';
import { asWellFormedRecord } from './import-fast-check.js';

export type GraphRecord = MemoryLineValue | EdgeLineValue;

/** Why a line was refused: its own text, or (in a bulk load) an edge end no earlier line brought. */
export type LineProblem =
  | { kind: 'line'; line: number; message: string }
  | { kind: 'missing-end'; line: number; end: 'from' | 'to'; id: string };

/** Validated records of up to `batchSize` lines, each with its line number. */
export interface ParsedBatch {
  records: GraphRecord[];
  lines: number[];
}

export class LineRefused extends Error {
  constructor(readonly problem: LineProblem) {
    super(problem.kind === 'line' ? problem.message : `${problem.end}: no memory "${problem.id}"`);
  }
}

/**
 * Splits NDJSON text into lines as readline does (\n, \r\n or \r), parses and validates each line
 * with the API's rules, and gathers the records into batches. `knownIdsOnly`: the workspace
 * started empty (a bulk load), so an edge's ends must be memories of earlier lines.
 */
export function createLineParser(options: { batchSize: number; knownIdsOnly: boolean }) {
  const known = options.knownIdsOnly ? new Set<string>() : null;
  let carry = '';
  let lineNumber = 0;
  let batch: ParsedBatch = { records: [], lines: [] };
  const ready: ParsedBatch[] = [];

  const take = (text: string) => {
    lineNumber++;
    if (text.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new LineRefused({
        kind: 'line',
        line: lineNumber,
        message: `not valid JSON (${(error as Error).message})`,
      });
    }
    const record = asWellFormedRecord(json) ?? validated(json);
    if (known) {
      if (record.record === 'memory') known.add(record.id);
      else
        for (const [end, id] of [
          ['from', record.from],
          ['to', record.to],
        ] as const)
          if (!known.has(id)) throw new LineRefused({ kind: 'missing-end', line: lineNumber, end, id });
    }
    batch.records.push(record);
    batch.lines.push(lineNumber);
    if (batch.records.length >= options.batchSize) {
      ready.push(batch);
      batch = { records: [], lines: [] };
    }
  };

  const validated = (json: unknown): GraphRecord => {
    const parsed = GraphLine.safeParse(json);
    if (!parsed.success)
      throw new LineRefused({ kind: 'line', line: lineNumber, message: describeIssues(parsed.error) });
    return parsed.data;
  };

  return {
    /** Takes the next piece of text; returns the batches it completed. */
    push(text: string): ParsedBatch[] {
      const parts = (carry + text).split(/\r\n|\r(?!$)|\n/);
      // The last part has no line break yet (a trailing \r may still become \r\n).
      carry = parts.pop() ?? '';
      for (const part of parts) take(part);
      return ready.splice(0);
    },
    /** The end of the input: the last line and the last, partial batch. */
    end(): { batches: ParsedBatch[]; lines: number } {
      if (carry !== '') take(carry.endsWith('\r') ? carry.slice(0, -1) : carry);
      carry = '';
      if (batch.records.length > 0) ready.push(batch);
      batch = { records: [], lines: [] };
      return { batches: ready.splice(0), lines: lineNumber };
    },
    /** Batches completed before a refused line: they are written, as without the worker. */
    completed(): ParsedBatch[] {
      return ready.splice(0);
    },
  };
}
