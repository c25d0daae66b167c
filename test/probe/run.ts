// Runs the probe's command (scripts/platform-probe/cli.ts main) in-process, as `npm run
// platform:probe` would, and collects what it printed and wrote.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { main } from '../../scripts/platform-probe/cli'

export const ROOT = resolve(import.meta.dirname, '../..')

export interface ProbeRun {
  code: number
  output: string
  outDir: string
  /** file name → its text, every file the run wrote. */
  files: Map<string, string>
  json: (file: string) => RecordingFile
  summary: () => Summary
}

export interface RecordingFile {
  request: { method: string; path: string; query: Record<string, string>; headers: [string, string][]; body: unknown }
  response: { status: number; headers: [string, string][]; json?: unknown; text?: string }
  probe: { schema: string | null; differences: { against: string; path: string; detail: string }[] }
}

export interface Summary {
  calls: { file: string; call: string; status: number }[]
  stoppedBecause: string | null
  notes: string[]
  differences: { call: string; against: string; path: string; detail: string }[]
}

export async function runProbeCommand(
  argv: string[],
  options: {
    env?: Record<string, string>
    intervalMs?: number
    network?: (r: Request) => Promise<Response>
    /** The terminal's answer to each question; absent: no terminal. */
    answer?: (question: string) => string
  } = {},
): Promise<ProbeRun> {
  const outDir = join(mkdtempSync(join(tmpdir(), 'probe-')), 'recorded')
  const lines: string[] = []
  const code = await main({
    argv: [...argv, '--out', outDir],
    env: options.env ?? {},
    root: ROOT,
    network: options.network ?? ((request) => fetch(request)),
    ask: options.answer ? async (question) => options.answer?.(question) ?? '' : null,
    print: (line) => lines.push(line),
    intervalMs: options.intervalMs ?? 20,
    now: () => new Date(),
  })
  const files = new Map<string, string>()
  for (const name of safeList(outDir)) files.set(name, readFileSync(join(outDir, name), 'utf8'))
  return {
    code,
    output: lines.join('\n'),
    outDir,
    files,
    json: (file) => JSON.parse(files.get(file) ?? 'null') as RecordingFile,
    summary: () => JSON.parse(files.get('summary.json') ?? 'null') as Summary,
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

/** Every file's text, for "this value appears nowhere" checks. */
export const allText = (run: ProbeRun) => [...run.files.values()].join('\n')
