// server.json, the entry for the official MCP registry: what the registry accepts (a description
// of at most 100 characters, a reverse-DNS name) and what the deployment serves (the remote is
// the production origin's /mcp, the name's namespace is that origin's domain, proved by
// /.well-known/mcp-registry-auth there; the version and title are the server's own).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const entry = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8')) as {
  name: string
  title: string
  description: string
  version: string
  websiteUrl: string
  remotes: { type: string; url: string }[]
}
const wrangler = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')
const serverSource = readFileSync(join(ROOT, 'src/mcp/server.ts'), 'utf8')

/** The production PUBLIC_BASE_URL (the [env.production.vars] one, the last in the file). */
const productionOrigin = [...wrangler.matchAll(/^PUBLIC_BASE_URL = "([^"]+)"/gm)].at(-1)?.[1] ?? ''

describe('server.json', () => {
  it('has what the registry takes: a short description and a reverse-DNS name', () => {
    expect(entry.description.length).toBeGreaterThan(0)
    expect(entry.description.length).toBeLessThanOrEqual(100)
    expect(entry.name).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+\/[a-z0-9._-]+$/)
  })

  it("names the production origin's /mcp, in the namespace of that origin's domain", () => {
    expect(productionOrigin).toMatch(/^https:\/\//)
    expect(entry.remotes).toEqual([{ type: 'streamable-http', url: `${productionOrigin}/mcp` }])
    expect(entry.websiteUrl).toBe(productionOrigin)
    const host = new URL(productionOrigin).hostname.split('.')
    // HTTP proof covers the domain and its subdomains: com.example.tablewatch for tablewatch.example.com.
    expect(entry.name.split('/')[0]).toBe(host.reverse().join('.'))
  })

  it("carries the server's own title and version", () => {
    expect(serverSource).toContain(`title: '${entry.title}', version: '${entry.version}'`)
  })
})
