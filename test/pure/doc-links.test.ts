// The README and everything under docs/ point only at what a reader of the repository can open:
// every markdown link resolves to a file or folder inside the repository, every repository path
// named in a code span exists, and nothing cites the team's notes outside the repository (the
// platform facts live in docs/platform.md). Fenced code blocks are commands, not references.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

function markdownFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

const DOCUMENTS = ['README.md', ...markdownFiles('docs')]

/** The prose of a document: fenced blocks removed (their lines kept empty, so line numbers stay). */
function prose(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ''))
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length

/** `[text](target)` links, inline code removed first so a code span cannot look like a link. */
function links(file: string): { target: string; line: number }[] {
  const text = prose(file).replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length))
  return [...text.matchAll(/\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({
    target: m[1] ?? '',
    line: lineOf(text, m.index ?? 0),
  }))
}

function codeSpans(file: string): { span: string; line: number }[] {
  const text = prose(file)
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => ({ span: m[1] ?? '', line: lineOf(text, m.index ?? 0) }))
}

const isExternal = (target: string) => /^(?:https?:|mailto:|webcal:)/.test(target) || target.startsWith('#')

/** Paths the repository ignores (.gitignore): named in the docs (local state, outputs) but never committed. */
const IGNORED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#') && !line.includes('*'))
  .map((line) => line.replace(/\/$/, ''))
const ignored = (path: string) =>
  IGNORED.some((entry) => (entry.includes('/') ? path === entry || path.startsWith(`${entry}/`) : path.split('/').includes(entry)))

/** A code span that names a path of this repository, with no placeholder or pattern in it. */
const REPOSITORY_PATH = /^(?:src|test|sandbox|device|scripts|bench|docs|migrations|conformance|public)\/[\w./-]*$/

const insideRoot = (path: string) => path === ROOT || path.startsWith(ROOT + sep)

describe('the documentation', () => {
  it('finds the README and the docs folder to check', () => {
    expect(DOCUMENTS).toContain('README.md')
    expect(DOCUMENTS).toContain(join('docs', 'platform.md'))
    expect(DOCUMENTS).toContain(join('docs', 'decisions', 'README.md'))
  })

  it('links only to files and folders inside the repository', () => {
    const broken = DOCUMENTS.flatMap((file) =>
      links(file)
        .filter(({ target }) => !isExternal(target))
        .filter(({ target }) => {
          const path = resolve(ROOT, dirname(file), decodeURIComponent(target.split('#')[0] ?? ''))
          return !insideRoot(path) || !existsSync(path)
        })
        .map(({ target, line }) => `${file}:${line} → ${target}`),
    )
    expect(broken).toEqual([])
  })

  it('names only repository paths that exist', () => {
    const missing = DOCUMENTS.flatMap((file) =>
      codeSpans(file)
        .filter(({ span }) => REPOSITORY_PATH.test(span) && !ignored(span.replace(/\/$/, '')))
        .filter(({ span }) => !existsSync(join(ROOT, span)))
        .map(({ span, line }) => `${file}:${line} → ${span}`),
    )
    expect(missing).toEqual([])
  })

  it('cites nothing outside the repository: no shared notes, no paths of one machine', () => {
    const outside = DOCUMENTS.flatMap((file) =>
      prose(file)
        .split('\n')
        .flatMap((text, i) =>
          /(?:^|[\s`(])(?:\.\.\/)*shared\/(?:reference|spec|design|style)|\/work\//.test(text) ? [`${file}:${i + 1}`] : [],
        ),
    )
    expect(outside).toEqual([])
  })
})
