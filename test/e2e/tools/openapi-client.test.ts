// A typed REST client generated from the served OpenAPI document with openapi-typescript and
// used through openapi-fetch (both pinned dev dependencies): the document is fetched from the
// running service, the types are generated next to the client code (git ignores them), the
// client code is type-checked against them, and then it runs create → get → stop against the
// service under wrangler dev.
import { execFile } from 'node:child_process'
import { mkdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { dateIn } from '../api'
import { seededToken } from '../tokens'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../../..')
const CLIENT = join(ROOT, 'test/e2e/typed-client')
const GENERATED = join(CLIENT, 'generated')
// Imported by path, not by a literal specifier: \`npm run typecheck\` runs on a clean clone, where
// ./generated does not exist yet; the flow is type-checked by typeCheck() below once it does.
const FLOW = join(CLIENT, 'flow.ts')
const baseUrl = inject('baseUrl')

interface FlowModule {
  createGetStop(
    baseUrl: string,
    token: string,
    day: string,
  ): Promise<{
    createdStatus: number
    created: { id: string; status: string; revision: number }
    read: { id: string; status: string }
    stopped: { id: string; status: string }
  }>
}

async function generateTypes(): Promise<void> {
  await rm(GENERATED, { recursive: true, force: true })
  await mkdir(GENERATED, { recursive: true })
  const cli = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js')
  // A field with a default (party_size, seating, …) is optional in a request: the document's
  // `required` says so, and the generator follows it only with default-non-nullable off.
  await run(
    process.execPath,
    [cli, `${baseUrl}/api/v1/openapi.json`, '--output', join(GENERATED, 'api.d.ts'), '--default-non-nullable', 'false'],
    { cwd: ROOT },
  )
}

async function typeCheck(): Promise<{ ok: boolean; output: string }> {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  return run(process.execPath, [tsc, '--noEmit', '-p', join(CLIENT, 'tsconfig.json')], { cwd: ROOT })
    .then(({ stdout }) => ({ ok: true, output: stdout }))
    .catch((err: { stdout?: string }) => ({ ok: false, output: err.stdout ?? '' }))
}

describe('a typed client generated from /api/v1/openapi.json', () => {
  it('type-checks against the generated types, and runs create → get → stop', { timeout: 180_000 }, async () => {
    await generateTypes()
    const checked = await typeCheck()
    expect(checked.output).toBe('')
    expect(checked.ok).toBe(true)

    const { createGetStop }: FlowModule = await import(FLOW)
    const result = await createGetStop(baseUrl, await seededToken('typed-client'), dateIn('America/New_York', 9))
    expect(result.createdStatus).toBe(201)
    expect(result.created).toMatchObject({ id: expect.stringMatching(/^sr_/), status: 'active', revision: 1 })
    expect(result.read).toEqual({ id: result.created.id, status: 'active' })
    expect(result.stopped).toEqual({ id: result.created.id, status: 'stopped' })
  })
})
