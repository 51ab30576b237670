/** The page's fixed elements (index.html), looked up once when the explorer starts. */
import { byId } from './dom.js';

export function findElements() {
  const workspaceForm = byId<HTMLFormElement>('workspace-form');
  return {
    workspaceForm,
    workspaceInput: byId<HTMLInputElement>('workspace-input'),
    workspaceList: byId<HTMLDataListElement>('workspace-list'),
    workspaceButton: workspaceForm.querySelector('button') as HTMLButtonElement,
    apiKeyBox: byId<HTMLDetailsElement>('api-key-box'),
    apiKeyForm: byId<HTMLFormElement>('api-key-form'),
    apiKeyInput: byId<HTMLInputElement>('api-key-input'),
    apiKeyClear: byId<HTMLButtonElement>('api-key-clear'),
    searchForm: byId<HTMLFormElement>('search-form'),
    searchInput: byId<HTMLInputElement>('search-input'),
    searchResults: byId<HTMLUListElement>('search-results'),
    recallForm: byId<HTMLFormElement>('recall-form'),
    recallInput: byId<HTMLInputElement>('recall-input'),
    recallFromSelected: byId<HTMLInputElement>('recall-from-selected'),
    recallSummary: byId('recall-summary'),
    recallResults: byId<HTMLOListElement>('recall-results'),
    direction: byId<HTMLSelectElement>('direction-select'),
    typeOptions: byId('type-options'),
    showPruned: byId<HTMLInputElement>('show-pruned'),
    pathFrom: byId('path-from'),
    pathTo: byId('path-to'),
    maxHops: byId<HTMLInputElement>('max-hops'),
    findPath: byId<HTMLButtonElement>('find-path'),
    clearPath: byId<HTMLButtonElement>('clear-path'),
    pathResult: byId('path-result'),
    pathSteps: byId<HTMLOListElement>('path-steps'),
    legend: byId<HTMLUListElement>('legend'),
    graph: byId('graph'),
    graphCounts: byId('graph-counts'),
    fitGraph: byId<HTMLButtonElement>('fit-graph'),
    relayout: byId<HTMLButtonElement>('relayout'),
    clearGraph: byId<HTMLButtonElement>('clear-graph'),
    nodeCount: byId('node-count'),
    nodeList: byId<HTMLUListElement>('node-list'),
    details: byId('details'),
    status: byId('status'),
  };
}

export type Elements = ReturnType<typeof findElements>;
