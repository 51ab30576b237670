import type { GraphStore, NewRecallCue, RecallCue } from '../port.js';
import type { StoreContext } from './store-context.js';

interface CueRow {
  id: string;
  memory_id: string;
  edge_id: string;
  names: string;
  terms: string;
  created_at: string;
  weight: number;
}

/**
 * Recall cues in the `recall_cues` table, one row per cue and key. Like recall records they touch
 * no memory or edge, so they bypass the write path that keeps the adjacency index in step.
 */
export function createRecallCues({
  db,
  sql,
}: StoreContext): Pick<GraphStore, 'saveRecallCue' | 'deleteRecallCue' | 'findRecallCues'> {
  const remove = (ws: string, id: string) => sql('DELETE FROM recall_cues WHERE workspace = ? AND id = ?').run(ws, id);
  const save = db.transaction((ws: string, cue: NewRecallCue, keepPerMemory: number) => {
    const names = JSON.stringify(cue.names);
    const terms = JSON.stringify(cue.terms);
    const same = sql(
      'SELECT DISTINCT id FROM recall_cues WHERE workspace = ? AND memory_id = ? AND names = ? AND terms = ?',
    ).pluck();
    for (const id of same.all(ws, cue.memoryId, names, terms) as string[]) remove(ws, id);
    const insert = sql(
      `INSERT INTO recall_cues (workspace, key, created_at, id, memory_id, edge_id, names, terms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const key of cue.keys) insert.run(ws, key, cue.createdAt, cue.id, cue.memoryId, cue.edgeId, names, terms);
    // The memory's cues newest first, each once; those past the cap go. At most the cap plus one
    // cue's keys are read, since every save trims.
    const older = sql(
      `SELECT id FROM recall_cues WHERE workspace = ? AND memory_id = ?
         GROUP BY id ORDER BY max(created_at) DESC, id DESC LIMIT -1 OFFSET ?`,
    ).pluck();
    for (const id of older.all(ws, cue.memoryId, keepPerMemory) as string[]) remove(ws, id);
  });
  return {
    async saveRecallCue(ws, cue, keepPerMemory) {
      save(ws, cue, keepPerMemory);
    },

    async deleteRecallCue(ws, id) {
      remove(ws, id);
    },

    async findRecallCues(ws, keys, perKey) {
      const newest = sql(
        'SELECT id FROM recall_cues WHERE workspace = ? AND key = ? ORDER BY created_at DESC, id DESC LIMIT ?',
      ).pluck();
      const ids = new Set<string>();
      for (const key of keys) for (const id of newest.all(ws, key, perKey) as string[]) ids.add(id);
      if (ids.size === 0) return [];
      // A cue's rows differ only in their key: one of them is read, with its edge's weight.
      const rows = sql(
        `SELECT c.id, c.memory_id, c.edge_id, c.names, c.terms, c.created_at, e.weight
         FROM json_each(?) AS wanted
         JOIN recall_cues AS c ON c.workspace = ? AND c.id = wanted.value
         JOIN edges AS e ON e.workspace = c.workspace AND e.id = c.edge_id
         GROUP BY c.id`,
      ).all(JSON.stringify([...ids]), ws) as CueRow[];
      return rows.map(
        (row): RecallCue => ({
          id: row.id,
          memoryId: row.memory_id,
          edgeId: row.edge_id,
          edgeWeight: row.weight,
          names: JSON.parse(row.names) as string[],
          terms: JSON.parse(row.terms) as string[],
          createdAt: row.created_at,
        }),
      );
    },
  };
}
