// The MCP tools: one per operation of the table (src/operations/table.ts) that has a tool's
// wording, in the order tools/list shows them.
import { ALL_OPERATIONS } from '../operations/table'
import { type McpTool, toolOf } from './tool'

export const TOOLS: McpTool[] = ALL_OPERATIONS.flatMap((op) => (op.tool ? [toolOf(op, op.tool)] : []))

/** The tool of this name, if there is one (tools/call names it before any tool runs). */
export function toolNamed(name: string): McpTool | undefined {
  return TOOLS.find((tool) => tool.name === name)
}
