/**
 * The drawing: a Cytoscape.js instance with Engram's styles. Layout is Cytoscape's built-in
 * force-directed 'cose'; this module only says what is on the graph and how it looks.
 */
import cytoscape, { type Core, type ElementDefinition, type StylesheetJson } from 'cytoscape';
import type { EdgeView, MemoryNode } from './types.js';

/** Node fill per kind; each keeps at least 3:1 contrast against the white canvas. */
const KIND_COLOURS: Record<string, string> = {
  decision: '#1d4ed8',
  fact: '#047857',
  hypothesis: '#7e22ce',
  experiment: '#b45309',
  question: '#be185d',
  observation: '#0e7490',
};
const EXTRA_COLOURS = ['#4d7c0f', '#9f1239', '#4338ca', '#a16207', '#0f766e', '#86198f'];
const NO_KIND_COLOUR = '#6b7280';

export function kindColour(kind: string | null): string {
  if (!kind) return NO_KIND_COLOUR;
  const known = KIND_COLOURS[kind.toLowerCase()];
  if (known) return known;
  let hash = 0;
  for (const char of kind) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return EXTRA_COLOURS[hash % EXTRA_COLOURS.length] ?? NO_KIND_COLOUR;
}

/** Line width in pixels for an edge weight 0..1: 1 px at 0, 9 px at 1. */
const edgeWidth = (weight: number): number => Math.round((1 + 8 * Math.max(0, Math.min(1, weight))) * 10) / 10;

const nodeSize = (weight: number): number => Math.round(24 + 22 * Math.max(0, Math.min(1, weight)));

const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const STYLE: StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(colour)',
      width: 'data(size)',
      height: 'data(size)',
      label: 'data(label)',
      color: '#111827',
      'font-size': 12,
      'text-valign': 'bottom',
      'text-margin-y': 4,
      'text-wrap': 'wrap',
      'text-max-width': '130px',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.85,
      'text-background-padding': '2px',
      'border-width': 2,
      'border-color': '#ffffff',
    },
  },
  { selector: 'node.opened', style: { 'border-color': '#111827', 'border-width': 3 } },
  {
    selector: 'edge',
    style: {
      width: 'data(width)',
      'line-color': '#6b7280',
      'target-arrow-color': '#6b7280',
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.9,
      'curve-style': 'bezier',
      label: 'data(type)',
      'font-size': 10,
      color: '#374151',
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.9,
      'text-background-padding': '1px',
    },
  },
  { selector: 'edge.pruned', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4], opacity: 0.7 } },
  { selector: 'edge.pruned.hide-pruned', style: { display: 'none' } },
  { selector: '.faded', style: { opacity: 0.25 } },
  { selector: 'node.on-path', style: { 'border-color': '#c2410c', 'border-width': 5 } },
  {
    selector: 'edge.on-path',
    style: { 'line-color': '#c2410c', 'target-arrow-color': '#c2410c', color: '#9a3412', 'z-index': 10 },
  },
  // Last, so a selection shows over the path highlight.
  { selector: 'node:selected', style: { 'border-color': '#1d4ed8', 'border-width': 6, opacity: 1 } },
  {
    selector: 'edge:selected',
    style: { 'line-color': '#1d4ed8', 'target-arrow-color': '#1d4ed8', color: '#1d4ed8', opacity: 1, 'z-index': 20 },
  },
];

export interface GraphHandlers {
  onMemory(id: string): void;
  onEdge(id: string): void;
  onBackground(): void;
}

export interface GraphView {
  readonly cy: Core;
  hasMemory(id: string): boolean;
  /** Adds or updates memories; new ones start next to `near` so the layout keeps the picture stable. */
  putMemories(memories: readonly MemoryNode[], near?: string): void;
  putEdges(edges: readonly EdgeView[]): void;
  markOpened(id: string): void;
  select(target: { memory: string } | { edge: string } | null): void;
  setShowPruned(show: boolean): void;
  highlightPath(memoryIds: readonly string[], edgeIds: readonly string[]): void;
  clearPath(): void;
  layout(): void;
  fit(): void;
  clear(): void;
}

export function createGraphView(container: HTMLElement, handlers: GraphHandlers): GraphView {
  const cy = cytoscape({
    container,
    style: STYLE,
    minZoom: 0.2,
    maxZoom: 2.5,
    selectionType: 'single',
    boxSelectionEnabled: false,
  });
  let showPruned = true;

  cy.on('tap', 'node', (event) => handlers.onMemory(event.target.id()));
  cy.on('tap', 'edge', (event) => handlers.onEdge(event.target.id()));
  cy.on('tap', (event) => {
    if (event.target === cy) handlers.onBackground();
  });

  const memoryData = (memory: MemoryNode) => ({
    id: memory.id,
    label: truncate(memory.title, 48),
    title: memory.title,
    kind: memory.kind ?? '',
    weight: memory.weight,
    colour: kindColour(memory.kind),
    size: nodeSize(memory.weight),
  });

  const edgeData = (edge: EdgeView) => ({
    id: edge.id,
    source: edge.from,
    target: edge.to,
    type: edge.type,
    weight: edge.weight,
    pruned: edge.pruned,
    width: edgeWidth(edge.weight),
  });

  const view: GraphView = {
    cy,
    hasMemory: (id) => cy.getElementById(id).nonempty(),
    putMemories(memories, near) {
      const anchor = near ? cy.getElementById(near) : null;
      const centre = anchor?.nonempty() ? anchor.position() : { x: 0, y: 0 };
      const added: ElementDefinition[] = [];
      memories.forEach((memory, index) => {
        const existing = cy.getElementById(memory.id);
        if (existing.nonempty()) {
          existing.data(memoryData(memory));
          return;
        }
        // Spread new nodes on a small spiral around their anchor; cose takes it from there.
        const angle = index * 2.39996;
        const radius = 60 + 12 * index;
        added.push({
          group: 'nodes',
          data: memoryData(memory),
          position: { x: centre.x + radius * Math.cos(angle), y: centre.y + radius * Math.sin(angle) },
        });
      });
      if (added.length > 0) cy.add(added);
    },
    putEdges(edges) {
      const added: ElementDefinition[] = [];
      for (const edge of edges) {
        const existing = cy.getElementById(edge.id);
        if (existing.nonempty()) {
          existing.data(edgeData(edge));
          existing.toggleClass('pruned', edge.pruned);
          existing.toggleClass('hide-pruned', !showPruned);
          continue;
        }
        if (cy.getElementById(edge.from).empty() || cy.getElementById(edge.to).empty()) continue;
        const classes = [edge.pruned ? 'pruned' : '', showPruned ? '' : 'hide-pruned'].filter(Boolean).join(' ');
        added.push({ group: 'edges', data: edgeData(edge), classes });
      }
      if (added.length > 0) cy.add(added);
    },
    markOpened(id) {
      cy.getElementById(id).addClass('opened');
    },
    select(target) {
      cy.elements().unselect();
      if (!target) return;
      const element = cy.getElementById('memory' in target ? target.memory : target.edge);
      element.select();
    },
    setShowPruned(show) {
      showPruned = show;
      cy.edges().toggleClass('hide-pruned', !show);
    },
    highlightPath(memoryIds, edgeIds) {
      view.clearPath();
      const onPath = cy.collection();
      for (const id of [...memoryIds, ...edgeIds]) onPath.merge(cy.getElementById(id));
      onPath.addClass('on-path');
      cy.elements().difference(onPath).addClass('faded');
    },
    clearPath() {
      cy.elements().removeClass('on-path faded');
    },
    layout() {
      if (cy.elements().empty()) return;
      cy.layout({
        name: 'cose',
        animate: false,
        randomize: false,
        fit: true,
        padding: 40,
        nodeDimensionsIncludeLabels: true,
        // Long enough that an edge's middle is clear of both nodes, so it can be clicked.
        idealEdgeLength: () => 90,
        nodeRepulsion: () => 4500,
        edgeElasticity: () => 90,
        gravity: 1,
        componentSpacing: 60,
      }).run();
    },
    fit() {
      cy.fit(undefined, 40);
    },
    clear() {
      cy.elements().remove();
    },
  };
  return view;
}
