import { z } from 'zod';
import { asEntity, byId, lookupEntities, relationsTouching } from '../graph-io.js';
import { defineProfileTool, graphShape, READ_HINTS } from '../profile-tool.js';

export const openNodes = defineProfileTool({
  name: 'open_nodes',
  title: 'Open Nodes',
  description: 'The named entities, with every relation from or to them. Names that do not exist are left out.',
  input: z.object({ names: z.array(z.string()).describe('Names of the entities to open.') }),
  output: graphShape,
  hints: READ_HINTS,
  async run({ names }, execute) {
    // In the graph's order (creation), as the official server lists them, not the order asked.
    const memories = [...(await lookupEntities(execute, names)).values()].sort(byId);
    const relations = await relationsTouching(
      execute,
      memories.map((memory) => memory.id),
    );
    return { structured: { entities: memories.map(asEntity), relations } };
  },
});
