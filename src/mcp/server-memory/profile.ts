import type { RegisteredEngramTool } from '../tool.js';
import { addObservations } from './tools/add-observations.js';
import { createEntities } from './tools/create-entities.js';
import { createRelations } from './tools/create-relations.js';
import { deleteEntities } from './tools/delete-entities.js';
import { deleteObservations } from './tools/delete-observations.js';
import { deleteRelations } from './tools/delete-relations.js';
import { openNodes } from './tools/open-nodes.js';
import { readGraph } from './tools/read-graph.js';
import { searchNodes } from './tools/search-nodes.js';

/** The official MCP memory server's nine tools, in its order: `engram mcp --profile server-memory`. */
export const SERVER_MEMORY_TOOLS: readonly RegisteredEngramTool[] = [
  createEntities,
  createRelations,
  addObservations,
  deleteEntities,
  deleteObservations,
  deleteRelations,
  readGraph,
  searchNodes,
  openNodes,
];

export const SERVER_MEMORY_INSTRUCTIONS = `A knowledge graph memory (Engram, in the tools of the official MCP memory server): entities with observations, joined by relations in active voice.
Look before you write: search_nodes or open_nodes, then create_entities / create_relations / add_observations. read_graph answers in pages past 500 entities; follow next_cursor.
Writes persist at once and are shared with every client of this workspace.`;
