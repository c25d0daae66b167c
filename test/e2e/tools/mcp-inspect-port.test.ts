// `npm run mcp:inspect` talks to the service on the port `npm start` serves: 8787, or the one
// `--port N` or PORT=N names, the same rule as npm start's (scripts/local-port.mjs). Run as the
// README runs it (the pinned Inspector's CLI, a token header, tools/list) against this suite's
// service, whose port is never 8787.
import { describe, expect, inject, it } from 'vitest'
import { npmRun } from '../npm-run'
import { seededToken } from '../tokens'

const port = new URL(inject('baseUrl')).port

/** `npm run -s mcp:inspect -- <args>`: the first run may download the pinned Inspector (npx -y). */
const mcpInspect = (args: string[], env: Record<string, string> = {}) => npmRun('mcp:inspect', args, env, 150_000)

const toolNames = (output: string) => {
  const listed = JSON.parse(output.slice(output.indexOf('{'))) as { tools: { name: string }[] }
  return listed.tools.map((tool) => tool.name)
}

describe('npm run mcp:inspect on another port', () => {
  it('lists the tools of the service on `--port N`', { timeout: 180_000 }, async () => {
    const token = await seededToken('inspect-port')
    const { code, stdout, stderr } = await mcpInspect([
      '--port',
      port,
      '--header',
      `Authorization: Bearer ${token}`,
      '--method',
      'tools/list',
    ])
    expect(code, stderr).toBe(0)
    expect(toolNames(stdout)).toContain('svc_create_request')
  })

  it('lists the tools of the service on PORT=N', { timeout: 180_000 }, async () => {
    const token = await seededToken('inspect-port')
    const { code, stdout, stderr } = await mcpInspect(['--header', `Authorization: Bearer ${token}`, '--method', 'tools/list'], {
      PORT: port,
    })
    expect(code, stderr).toBe(0)
    expect(toolNames(stdout)).toContain('svc_create_request')
  })
})
