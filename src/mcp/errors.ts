// The two MCP error formats, both from the error's own body: a tool failure as an `isError`
// result (never thrown at the transport), and an HTTP refusal on /mcp (401, 403) that keeps
// the OAuth library's status and challenge headers with the contract's `{code, message}` body.
import type { CallToolResult } from '@modelcontextprotocol/server'
import { type AppError, toAppError } from '../errors'

/**
 * The error travels as JSON text, not structuredContent: clients check structuredContent
 * against the tool's output schema, which describes success only. A schema failure carries
 * the REST 422 `detail` items beside its code and message.
 */
export function toolError(err: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(toAppError(err).toJSON()) }] }
}

export function mcpHttpError(libraryResponse: Response, err: AppError): Response {
  return err.toResponse({ status: libraryResponse.status, headers: libraryResponse.headers })
}
