// The error formats, pure: each renders the error's own code, message, status and headers.
import { describe, expect, it, vi } from 'vitest'
import { AppError, errorResponse, ValidationError } from '../../src/errors'
import { mcpHttpError, toolError } from '../../src/mcp/errors'

const detail = [{ loc: ['body', 'party_size'], msg: 'Party size is 1 to 20.', type: 'less_than_equal' }]

describe('error rendering', () => {
  it("renders an AppError as the contract's {code, message} with its status and headers", async () => {
    const res = errorResponse(
      new AppError('insufficient_scope', 'Missing scope.', { 'WWW-Authenticate': 'Bearer error="insufficient_scope"' }),
    )
    expect(res.status).toBe(403)
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer error="insufficient_scope"')
    expect(res.headers.get('Content-Type')).toBe('application/json')
    expect(await res.json()).toEqual({ code: 'insufficient_scope', message: 'Missing scope.' })
  })

  it("renders a schema failure as the contract's 422 {detail} body", async () => {
    const res = errorResponse(new ValidationError(detail))
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ detail })
  })

  it('turns anything else into internal without sending its cause', async () => {
    const res = errorResponse(new Error('D1_ERROR: secret table name'))
    expect(res.status).toBe(500)
    const body = await res.json<{ code: string; message: string }>()
    expect(body.code).toBe('internal')
    expect(body.message).not.toContain('D1_ERROR')
  })

  it('writes the cause of an AppError into the log line of its answer, and never sends it', async () => {
    const logged: unknown[][] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      logged.push(args)
    })
    try {
      const res = errorResponse(
        new AppError('platform_unavailable', 'The platform did not answer.', {}, new Error('connect ETIMEDOUT 10.0.0.7:443')),
      )
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ code: 'platform_unavailable', message: 'The platform did not answer.' })
      expect(logged).toHaveLength(1)
      const line = logged[0]?.map(String).join(' ') ?? ''
      expect(line).toContain('platform_unavailable: The platform did not answer.')
      expect(line).toContain('connect ETIMEDOUT 10.0.0.7:443')
      // An AppError without a cause is the user's own mistake: nothing to log.
      errorResponse(new AppError('invalid_request', 'Send a party size.'))
      expect(logged).toHaveLength(1)
    } finally {
      spy.mockRestore()
    }
  })

  it('gives an MCP tool failure as isError text with code, message and detail', () => {
    const result = toolError(new ValidationError(detail))
    expect(result.isError).toBe(true)
    const [content] = result.content
    expect(content?.type === 'text' ? JSON.parse(content.text) : null).toEqual({
      code: 'invalid_request',
      message: 'body.party_size: Party size is 1 to 20.',
      detail,
    })
  })

  it("keeps the OAuth library's status and challenge on an MCP HTTP refusal", async () => {
    const library = new Response('', {
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"' },
    })
    const err = new AppError('unauthorized', 'The access token is not valid.', { 'WWW-Authenticate': 'Bearer realm="tablewatch"' })
    const res = mcpHttpError(library, err)
    expect(res.status).toBe(401)
    expect(res.headers.get('WWW-Authenticate')).toContain('resource_metadata')
    expect(await res.json()).toEqual({ code: 'unauthorized', message: 'The access token is not valid.' })
  })
})
