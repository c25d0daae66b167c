// Tool results: structured content (matching the tool's output schema), and as text a one-line
// summary followed by the same content serialized as JSON, so a host that passes only text to
// the model loses nothing. Failures are tool errors carrying the contract's `code` and `message`.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server'
import { toolError } from './errors'

export function toolResult(structured: Record<string, unknown>, summary: string): CallToolResult {
  return {
    structuredContent: structured,
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(structured) },
    ],
  }
}

/** Runs a tool body; any thrown AppError (or other failure) becomes a tool error. */
export async function runTool(body: () => Promise<CallToolResult | InputRequiredResult>): Promise<CallToolResult | InputRequiredResult> {
  try {
    return await body()
  } catch (err) {
    return toolError(err)
  }
}
