// Which protocol versions /mcp says it serves (issue 26, item 5): the 2026-07-28 server/discover
// result and the -32022 UnsupportedProtocolVersion error list the 2025-era versions it also
// serves through initialize, not only 2026-07-28.
import { describe, expect, it } from 'vitest'
import { createUserWithToken } from '../helpers/auth'
import { initialize, mcpPost, rpc } from './mcp-client'

const SERVED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']

/** A 2026-07-28 request: the version and the client travel in every request's _meta. */
function modern(method: string, version = '2026-07-28') {
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  }
  return { body, headers: { 'MCP-Protocol-Version': version, 'Mcp-Method': method } }
}

describe('protocol versions', () => {
  it('server/discover lists every version served, the 2026 one first', async () => {
    const { token } = await createUserWithToken()
    const { body, headers } = modern('server/discover')
    for (const accept of ['application/json, text/event-stream', 'application/json']) {
      const res = await mcpPost(body, { token, headers: { ...headers, Accept: accept } })
      expect(res.status).toBe(200)
      expect(res.message?.result?.supportedVersions).toEqual(SERVED)
      expect(res.message?.result?.capabilities?.tools).toBeDefined()
    }
  })

  it('an unsupported version is refused with -32022 naming every version served', async () => {
    const { token } = await createUserWithToken()
    const { body, headers } = modern('tools/list', '2027-01-01')
    const res = await mcpPost(body, { token, headers })
    expect(res.status).toBe(400)
    expect(res.message?.error?.code).toBe(-32022)
    expect(res.message?.error?.data).toEqual({ supported: SERVED, requested: '2027-01-01' })
  })

  it('a 2025-era request with an unsupported MCP-Protocol-Version header is refused naming the same versions', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token, headers: { 'MCP-Protocol-Version': '1999-01-01' } })
    expect(res.status).toBe(400)
    const discovered = await mcpPost(modern('server/discover').body, { token, headers: modern('server/discover').headers })
    const listed = discovered.message?.result?.supportedVersions
    expect(listed).toEqual(SERVED)
    expect(res.message?.error?.data).toEqual({ supported: listed, requested: '1999-01-01' })
    // The message names them too, in the same order, for a client that shows only the message.
    expect(res.message?.error?.message).toContain(`(supported versions: ${SERVED.join(', ')})`)
  })

  it.each([
    ['2027-01-01', '2027-01-01'],
    ['2026-99-99<script>alert(1)</script>', '2026-99-99scriptalert1script'],
    [`9999-${'x'.repeat(500)}`, `9999-${'x'.repeat(27)}…`],
  ])(
    'an unknown MCP-Protocol-Version without _meta (%s) is an unsupported-version refusal, echoing a bounded, sanitised value',
    async (sent, echoed) => {
      const { token } = await createUserWithToken()
      const res = await mcpPost(rpc('tools/list'), { token, headers: { 'MCP-Protocol-Version': sent } })
      expect(res.status).toBe(400)
      expect(res.message?.error?.code).toBe(-32022)
      expect(res.message?.error?.data).toEqual({ supported: SERVED, requested: echoed })
      expect(res.message?.error?.message).toBe(
        `Bad Request: Unsupported protocol version: ${echoed} (supported versions: ${SERVED.join(', ')})`,
      )
      expect(JSON.stringify(res.message)).not.toContain('<script>')
    },
  )

  it('each 2025-era version it lists is really served through initialize', async () => {
    const { token } = await createUserWithToken()
    const res = await initialize(token)
    expect(SERVED).toContain(res.message?.result?.protocolVersion)
  })
})
