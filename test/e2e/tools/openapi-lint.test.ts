// The served OpenAPI document passes Redocly's linter (its recommended rules) with no errors, and
// names every operation.
import { execFile } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, inject, it } from 'vitest'

const run = promisify(execFile)

it('serves an OpenAPI 3.1 document that redocly lint accepts without errors', async () => {
  const res = await fetch(`${inject('baseUrl')}/api/v1/openapi.json`)
  expect(res.status).toBe(200)
  const doc = await res.json()
  expect(doc).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } })
  const file = join(await mkdtemp(join(tmpdir(), 'tablewatch-oas-')), 'openapi.json')
  await writeFile(file, JSON.stringify(doc))
  const lint = await run('node_modules/.bin/redocly', ['lint', file, '--format=json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }))
  const report = JSON.parse(lint.stdout) as {
    totals: { errors: number; warnings: number }
    problems: { ruleId: string; message: string; severity: string }[]
  }
  const errors = report.problems.filter((p) => p.severity === 'error')
  expect(errors).toEqual([])
  expect(report.totals.errors).toBe(0)
  // Every operation is named for generated clients.
  expect(report.problems.filter((p) => p.ruleId.startsWith('operation-operationId'))).toEqual([])
})
