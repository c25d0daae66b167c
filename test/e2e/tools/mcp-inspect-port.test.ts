// `npm run mcp:inspect` talks to the service on the port `npm start` serves: 8787, or the one
// `--port N` or PORT=N names, the same rule as npm start's (scripts/local-port.mjs). Run as the
// README runs it (the pinned Inspector's CLI, a token header, tools/list) against this suite's
// service, whose port is never 8787.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { createToken } from '../tokens'

const ROOT = resolve(import.meta.dirname, '../../..')
const port = new URL(inject('baseUrl')).port

/** `npm run -s mcp:inspect -- <args>` with `env`: its exit code and output. */
function mcpInspect(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', '-s', 'mcp:inspect', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  // The first run may download the pinned Inspector (npx -y); a guard against hangs, not a speed target.
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 150_000)
  return new Promise((done) =>
    child.on('exit', (code) => {
      clearTimeout(timer)
      done({ code, output })
    }),
  )
}

const toolNames = (output: string) => {
  const listed = JSON.parse(output.slice(output.indexOf('{'))) as { tools: { name: string }[] }
  return listed.tools.map((tool) => tool.name)
}

describe('npm run mcp:inspect on another port', () => {
  it('lists the tools of the service on `--port N`', { timeout: 180_000 }, async () => {
    const token = await createToken('inspect-port')
    const { code, output } = await mcpInspect(['--port', port, '--header', `Authorization: Bearer ${token}`, '--method', 'tools/list'])
    expect(code, output).toBe(0)
    expect(toolNames(output)).toContain('svc_create_request')
  })

  it('lists the tools of the service on PORT=N', { timeout: 180_000 }, async () => {
    const token = await createToken('inspect-port')
    const { code, output } = await mcpInspect(['--header', `Authorization: Bearer ${token}`, '--method', 'tools/list'], { PORT: port })
    expect(code, output).toBe(0)
    expect(toolNames(output)).toContain('svc_create_request')
  })
})
