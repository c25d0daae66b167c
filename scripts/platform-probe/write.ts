// Writes a run's recordings, one JSON file per call, and summary.json (every difference and note).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ProbeOptions } from './options'
import type { ProbeResult } from './probe'

export class OutDirTaken extends Error {}

/** Refuses a folder that already holds files: an earlier run's recordings are never overwritten. */
export function prepareOutDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new OutDirTaken(`${dir} already holds recordings; move them, or pass --out DIR for this run`)
  mkdirSync(dir, { recursive: true })
}

export function writeRun(dir: string, options: ProbeOptions, result: ProbeResult, startedAt: Date): string[] {
  const written: string[] = []
  for (const recording of result.recordings) {
    const path = join(dir, `${recording.file}.json`)
    writeFileSync(path, `${JSON.stringify({ recordedAt: startedAt.toISOString(), ...recording }, null, 2)}\n`)
    written.push(path)
  }
  const summary = {
    recordedAt: startedAt.toISOString(),
    by: 'npm run platform:probe (scripts/platform-probe)',
    platform: options.baseUrl,
    from: options.places,
    sandbox: options.sandbox?.baseUrl ?? null,
    day: options.day,
    partySize: options.partySize,
    account: options.account,
    calls: result.recordings.map((r) => ({
      file: `${r.file}.json`,
      call: `${r.request.method} ${r.request.path}`,
      status: r.response.status,
    })),
    stoppedBecause: result.stoppedBecause,
    notes: result.notes,
    signIn: result.signIn,
    differences: result.differences,
  }
  const path = join(dir, 'summary.json')
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`)
  written.push(path)
  return written
}
