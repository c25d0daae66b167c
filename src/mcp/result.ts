// Tool results: structured content (matching the tool's output schema) plus a short text for
// the model; failures as tool errors carrying the contract's `code` and `message`.
import type { CallToolResult } from '@modelcontextprotocol/server'
import { toolError } from './errors'

export function toolResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] }
}

/** Runs a tool body; any thrown AppError (or other failure) becomes a tool error. */
export async function runTool(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body()
  } catch (err) {
    return toolError(err)
  }
}
