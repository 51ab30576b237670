/** What is drawn, said again in text beside the canvas: the kinds legend, the memory list and the counts. */
import { h } from './dom.js';
import type { Elements } from './elements.js';
import type { ExplorerState } from './state.js';
import { memoryButton, swatch } from './widgets.js';

export function renderGraphLists(el: Elements, state: ExplorerState, open: (id: string) => void): void {
  const memories = [...state.memories.values()].sort((a, b) => a.title.localeCompare(b.title));
  el.nodeCount.textContent = String(memories.length);
  el.nodeList.replaceChildren(...memories.map((memory) => h('li', {}, memoryButton(memory, open, memory.kind))));

  const kinds = [...new Set(memories.map((memory) => memory.kind ?? ''))].sort();
  el.legend.replaceChildren(...kinds.map((kind) => h('li', {}, swatch(kind || null), kind || '(no kind)')));

  // Only edges with both ends drawn are on the canvas.
  const edges = [...state.edges.values()].filter(
    (edge) => state.memories.has(edge.from) && state.memories.has(edge.to),
  );
  const pruned = edges.filter((edge) => edge.pruned).length;
  el.graphCounts.textContent =
    memories.length === 0
      ? ''
      : `${memories.length} memories · ${edges.length} edges${pruned ? ` (${pruned} pruned)` : ''}`;
}
