import { expect, it } from 'vitest';
import { connectorTools } from '../../src/connector/mcp/tools/index.js';
import { TOOLS_WITHOUT_UNDO } from '../../src/connector/mcp/tools/tools-without-undo.js';
import { NOT_UNDOABLE } from '../../src/undo/not-undoable.js';
import { undoKindOfMutation } from '../../src/undo/undo-offers.js';

/** docs/undo.md: the assistant's write tools answer `undoToken` where their write offers one. */
it('every write tool is wired for undo, mirrors a write that offers none, or is named with its reason', () => {
  const tools = connectorTools().filter((tool) => tool.annotations.readOnlyHint !== true);
  const mirrored = (tool: (typeof tools)[number]) => tool.mirrors?.replace(/^Mutation\./, '');
  const unexplained = tools.filter((tool) => {
    if (tool.undoAs) return false;
    const mutation = mirrored(tool);
    if (mutation && mutation in NOT_UNDOABLE) return false;
    return !(tool.name in TOOLS_WITHOUT_UNDO);
  });
  expect(unexplained.map((tool) => tool.name)).toEqual([]);
  // A tool wired since, or gone, leaves the list; a wired tool names a registered kind's mutation.
  const writeNames = new Set(tools.map((tool) => tool.name));
  expect(Object.keys(TOOLS_WITHOUT_UNDO).filter((name) => !writeNames.has(name) || tools.find((t) => t.name === name)?.undoAs)).toEqual([]);
  expect(tools.filter((tool) => tool.undoAs && !undoKindOfMutation(tool.undoAs)).map((tool) => tool.name)).toEqual([]);
});
