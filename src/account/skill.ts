// The instruction file for assistants. src/account/skill.md is the one source of its words; the
// service's origin is filled in where the file says {base_url}, and the lists of REST endpoints
// and MCP tools come from the operation table, so an operation added there is in the file.
import type { z } from 'zod'
import type { Operation } from '../operations/operation'
import { ALL_OPERATIONS, REST_OPERATIONS } from '../operations/table'
import skill from './skill.md'

export const SKILL_VERSION = '1.0.0'

/** A Markdown table with its columns padded to their widest cell, as the formatter writes one. */
function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')
}

const restEndpoints = markdownTable(
  ['Method', 'Path', 'Scope', 'Notes'],
  REST_OPERATIONS.map((op) => [
    op.rest.method.toUpperCase(),
    `\`${op.rest.skill.path ?? op.rest.path}\``,
    `\`${op.scope}\``,
    op.rest.skill.note,
  ]),
)

function requiredArguments(op: Operation): string[] {
  const shape = (op.input as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {}
  return Object.entries(shape).flatMap(([name, schema]) => (schema.safeParse(undefined).success ? [] : [name]))
}

const mcpTools = ALL_OPERATIONS.flatMap((op) => {
  if (!op.tool) return []
  const required = requiredArguments(op)
  return [`\`svc_${op.name}\`${required.length > 0 ? ` (${required.map((name) => `\`${name}\``).join(', ')})` : ''}`]
}).join(', ')

const text = skill.replace('{rest_endpoints}', restEndpoints).replace('{mcp_tools}', mcpTools)

export function skillMarkdown(baseUrl: string): string {
  return text.replaceAll('{base_url}', baseUrl)
}
