// The "Connect an MCP host" snippets of docs/mcp-hosts.md (the README links there), read the way a
// user copies them: each fenced block of that section, in order, with its language. The snippets
// test checks their shape against the running service; the mcp-remote test runs the mcp-remote one.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
const GUIDE = 'docs/mcp-hosts.md'
const HEADING = '## Connect an MCP host'

export interface Snippet {
  lang: string
  text: string
}

export function connectSnippets(): Snippet[] {
  const guide = readFileSync(resolve(ROOT, GUIDE), 'utf8')
  const start = guide.indexOf(HEADING)
  if (start < 0) throw new Error(`${GUIDE} has no "${HEADING}" section`)
  const rest = guide.slice(start + HEADING.length)
  const end = rest.search(/\n#{2,3} /)
  const section = end < 0 ? rest : rest.slice(0, end)
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] ?? '', text: (m[2] ?? '').trim() }))
}

/** The arguments of the one-line `npx -y mcp-remote@… <url>` command. */
export function mcpRemoteCommand(): string[] {
  const line = connectSnippets().find((s) => s.lang === 'sh' && s.text.startsWith('npx -y mcp-remote@'))
  if (!line) throw new Error(`${GUIDE} has no mcp-remote command line`)
  return line.text.split(/\s+/)
}

/** The package versions the project pins, as package.json has them. */
export function pinned(): { mcpRemote: string; inspectorScript: string } {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>
    scripts: Record<string, string>
  }
  return { mcpRemote: pkg.devDependencies['mcp-remote'] ?? '', inspectorScript: pkg.scripts['mcp:inspect'] ?? '' }
}
