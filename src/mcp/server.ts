import { McpServer } from '@modelcontextprotocol/server';
import packageJson from '../../package.json' with { type: 'json' };
import { SERVER_MEMORY_INSTRUCTIONS, SERVER_MEMORY_TOOLS } from './server-memory/profile.js';
import type { RegisteredEngramTool, ToolDeps } from './tool.js';
import { memoryContext } from './tools/memory-context.js';
import { memoryContradictions } from './tools/memory-contradictions.js';
import { memoryCreate } from './tools/memory-create.js';
import { memoryDelete } from './tools/memory-delete.js';
import { memoryEvidence } from './tools/memory-evidence.js';
import { memoryFeedback } from './tools/memory-feedback.js';
import { memoryGet } from './tools/memory-get.js';
import { memoryHistory } from './tools/memory-history.js';
import { memoryLink } from './tools/memory-link.js';
import { memoryPath } from './tools/memory-path.js';
import { memoryRecall } from './tools/memory-recall.js';
import { memoryReinforce } from './tools/memory-reinforce.js';
import { memoryRelated } from './tools/memory-related.js';
import { memoryRevert } from './tools/memory-revert.js';
import { memorySearch } from './tools/memory-search.js';
import { memorySetWeight } from './tools/memory-set-weight.js';
import { memoryStrengthen } from './tools/memory-strengthen.js';
import { memoryTraverse } from './tools/memory-traverse.js';
import { memoryUnlink } from './tools/memory-unlink.js';
import { memoryUpdate } from './tools/memory-update.js';
import { memoryWeaken } from './tools/memory-weaken.js';
import { memoryWrite } from './tools/memory-write.js';
import { relationTypes } from './tools/relation-types.js';

/** The tool names are the contract agents code against (issue 4). */
const TOOLS = [
  memoryCreate,
  memoryGet,
  memorySearch,
  memoryRecall,
  memoryUpdate,
  memoryDelete,
  memoryLink,
  memoryUnlink,
  memoryRelated,
  memoryPath,
  memoryTraverse,
  memoryWeaken,
  memoryStrengthen,
  memoryFeedback,
  memoryEvidence,
  memoryContradictions,
  memoryContext,
  memoryReinforce,
  memoryHistory,
  memoryRevert,
  memorySetWeight,
  memoryWrite,
  relationTypes,
] as const;

const INSTRUCTIONS = `Engram is a shared memory graph: memories (facts, decisions, hypotheses, experiments) joined by typed, weighted relations.
Recall with memory_recall (words and/or seed memories, ranked along weighted relations) or memory_search (words only), then memory_get / memory_related / memory_traverse / memory_path to follow relations, or memory_context for one ranked bundle around the memories you work with.
Weigh a claim with memory_evidence (what supports and contradicts it); memory_contradictions lists what disagrees.
Before storing, search to avoid duplicates; store with memory_create and relate with memory_link (relation_types lists the vocabulary), or many records at once with memory_write.
Keep the graph honest: memory_feedback after using recalled memories (with the recall_id of memory_recall, so the path that led there learns), memory_weaken when the user corrects a recalled relation,
memory_strengthen when one is confirmed, memory_reinforce with the ids you used after a successful step, and SUPERSEDES links when a newer memory replaces an older one.
Every weight change returns an event_id: memory_history lists an edge's or memory's changes, memory_revert undoes one, memory_set_weight sets an edge weight exactly.
Every write persists at once and is visible to every client of this workspace. Memories can be named by id or key everywhere; naming a memory, edge or event that does not exist is a NOT_FOUND error.
Read tools answer summaries (id, key, title, kind, a snippet; superseded ones flagged); pass detail: full for whole memories, or memory_get one.`;

/**
 * Which tool set a server offers. `server-memory` is the official MCP memory server's nine tools
 * over the same graph (docs/mcp.md, "The server-memory profile"), for its users to switch by
 * changing one line of their client configuration.
 */
export const MCP_PROFILES = ['engram', 'server-memory'] as const;
export type McpProfile = (typeof MCP_PROFILES)[number];

export const isMcpProfile = (name: string): name is McpProfile => (MCP_PROFILES as readonly string[]).includes(name);

const PROFILES: Record<McpProfile, { tools: readonly RegisteredEngramTool[]; instructions: string; title: string }> = {
  engram: { tools: TOOLS, instructions: INSTRUCTIONS, title: 'Engram memory graph' },
  'server-memory': {
    tools: SERVER_MEMORY_TOOLS,
    instructions: SERVER_MEMORY_INSTRUCTIONS,
    title: 'Engram memory graph (server-memory tools)',
  },
};

/**
 * A fresh MCP server with the profile's tools registered. Each tool runs named operations through
 * `execute`, which decides the workspace; the stdio entry and /mcp call this per connection or request.
 */
export function buildServer(deps: ToolDeps, profile: McpProfile = 'engram'): McpServer {
  const chosen = PROFILES[profile];
  const server = new McpServer(
    { name: 'engram', title: chosen.title, version: packageJson.version },
    { instructions: chosen.instructions },
  );
  for (const tool of chosen.tools) tool.register(server, deps);
  return server;
}
