// An HTTP refusal on /mcp (401, 403) keeps the library's status and challenge headers; its
// body becomes the contract's `{code, message}`.
import type { AppError } from '../errors'

export function withErrorBody(response: Response, err: AppError): Response {
  const headers = new Headers(response.headers)
  headers.set('Content-Type', 'application/json')
  return new Response(JSON.stringify(err.toJSON()), { status: response.status, headers })
}
