/** Full-text search: the form and its result list. */

import type { ExplorerActions } from './actions.js';
import { type ApiClient, operations } from './api.js';
import { h } from './dom.js';
import type { Elements } from './elements.js';
import type { StatusLine } from './status.js';
import { memoryButton, plural } from './widgets.js';

const RESULT_LIMIT = 20;

export interface SearchPanelDeps {
  el: Elements;
  api: ApiClient;
  status: StatusLine;
  actions: ExplorerActions;
}

export function createSearchPanel({ el, api, status, actions }: SearchPanelDeps): { clear(): void } {
  const open = (id: string) => void status.run(() => actions.openMemory(id));

  async function search(query: string): Promise<void> {
    const hits = (await api.run(operations.search, { query, limit: RESULT_LIMIT })).searchMemories;
    el.searchResults.replaceChildren(...hits.map((hit) => h('li', {}, memoryButton(hit, open, hit.kind))));
    status.show(hits.length === 0 ? `Nothing matches “${query}”` : `${plural(hits.length, 'result')} for “${query}”`);
  }

  el.searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = el.searchInput.value.trim();
    if (query) void status.run(() => search(query));
  });

  return { clear: () => el.searchResults.replaceChildren() };
}
