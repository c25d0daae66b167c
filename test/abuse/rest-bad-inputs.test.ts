// Over a thousand bad inputs, generated from the served OpenAPI document and the zod schemas,
// across every REST route: each gets a 4xx in the contract's format, never a 5xx, and no
// batch changes a row of D1 or the request it aims at.
import { beforeEach, describe, expect, it } from 'vitest'
import { RequestSpec } from '../../src/request-use-cases/schemas'
import { newKey } from '../helpers/api'
import { REST_ENDPOINTS } from '../helpers/operations'
import { createOk, validSpec } from '../helpers/requests'
import { DAY_MS, expiresIn } from '../helpers/time'
import { seedVenues } from '../helpers/venues'
import { code, refusalProblem } from './support/contract'
import { edgeMutants } from './support/edges'
import { jsonHeaders, mapBounded, send } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { type ApiDocument, loadApiDocument, operationName } from './support/openapi'
import { stateOf } from './support/owned'
import { type Probe, restProbes, type Target } from './support/rest-probes'
import { specExamples } from './support/spec-cases'
import { rowCounts } from './support/tables'
import { secretUser } from './support/users'

/** The operations of the contract's Endpoints table; the document must list every one of them. */
const CONTRACT_OPERATIONS = [
  'GET /api/v1/capabilities',
  'GET /api/v1/restaurants',
  'POST /api/v1/requests/preview',
  'POST /api/v1/requests',
  'GET /api/v1/requests',
  'GET /api/v1/requests/{request_id}',
  'PUT /api/v1/requests/{request_id}',
  'POST /api/v1/requests/{request_id}/stop',
  'GET /api/v1/reservations/{reservation_id}',
]
/** Every REST route of the operation table (src/request-use-cases/operations.ts): an operation added there is probed by itself. */
const OPERATIONS = REST_ENDPOINTS.map(([method, path]) => `${method.toUpperCase()} ${path}`)

const CONCURRENCY = 6
/** A batch of hundreds of calls; generous, since other suites share the two cores. */
const BATCH_TIMEOUT_MS = 60_000

let doc: ApiDocument
let target: Target
let probes: Probe[]

// Each test gets its own owner, target request and probes, and checks its own transcript for leaks.
beforeEach(async () => {
  watchConsole()
  await seedVenues()
  const owner = await secretUser()
  const view = await createOk(owner.token)
  target = { token: owner.token, requestId: String(view.id), revision: Number(view.revision) }
  doc = await loadApiDocument()
  probes = restProbes(doc, target)
})

const viewOfTarget = () => stateOf(target.token, target.requestId)

/** Sends a batch and returns every answer that is not a proper refusal, with its input. */
async function refusalProblems(batch: Probe[]): Promise<string[]> {
  const answers = await mapBounded(batch, CONCURRENCY, (p) => send(p.call))
  return batch.flatMap((probe, i) => {
    const answer = answers[i]!
    const problem = refusalProblem(answer.status, answer.json, probe.want)
    return problem ? [`${probe.operation} | ${probe.name} | ${problem} | ${answer.text.slice(0, 300)}`] : []
  })
}

describe('bad REST inputs', () => {
  it('come from a document that lists exactly the operation table’s routes, every contract operation among them, over a thousand of them', () => {
    const documented = doc.operations
      .map(operationName)
      .filter((o) => !o.endsWith('/openapi.json'))
      .sort()
    expect(documented).toEqual([...OPERATIONS].sort())
    expect(documented).toEqual(expect.arrayContaining(CONTRACT_OPERATIONS))
    expect(probes.length).toBeGreaterThanOrEqual(1000)
    // Every path gets bad inputs (capabilities takes none, so only methods it does not list).
    for (const path of new Set(doc.operations.map((o) => o.path))) {
      expect(probes.filter((p) => p.operation.endsWith(` ${path}`)).length, path).toBeGreaterThan(0)
    }
  })

  it.each([...OPERATIONS, 'methods the document does not list'])(
    'refuses every bad input to %s with a 4xx in the contract format and changes nothing',
    async (operation) => {
      const batch = probes.filter((p) =>
        operation === 'methods the document does not list' ? !OPERATIONS.includes(p.operation) : p.operation === operation,
      )
      // A route that takes no input (capabilities) has nothing to break but its methods, probed below.
      const documented = doc.operations.find((o) => operationName(o) === operation)
      if (documented && documented.parameters.length === 0 && documented.body === undefined) return
      expect(batch.length).toBeGreaterThan(0)
      const before = await rowCounts()
      const viewBefore = await viewOfTarget()
      expect(await refusalProblems(batch)).toEqual([])
      expect(await rowCounts()).toEqual(before)
      expect(await viewOfTarget()).toEqual(viewBefore)
      expect(expectNoLeaks().responses).toBeGreaterThanOrEqual(batch.length)
    },
    BATCH_TIMEOUT_MS,
  )
})

describe('inputs that break a rule of the grant, the key or the revision', () => {
  it(
    'are refused with the named 4xx code and change nothing',
    async () => {
      const reused = newKey()
      const first = await send({
        method: 'POST',
        path: '/api/v1/requests',
        headers: jsonHeaders(target.token, { 'Idempotency-Key': reused }),
        body: JSON.stringify(validSpec({ title: 'first' })),
      })
      expect(first.status).toBe(201)
      // A token that ends tomorrow, and a request it made that ends before it.
      const short = await secretUser({ expiresAt: Date.now() + DAY_MS })
      const shortView = await createOk(short.token, validSpec({ expires_at: expiresIn(DAY_MS / 2) }))
      const twoDays = validSpec({ expires_at: expiresIn(2 * DAY_MS) })
      const put = (token: string, id: string, revision: number, spec: unknown) => ({
        method: 'PUT',
        path: `/api/v1/requests/${id}`,
        headers: jsonHeaders(token, { 'Idempotency-Key': newKey() }),
        body: JSON.stringify({ revision, spec }),
      })
      const batch: Probe[] = [
        {
          operation: 'POST /api/v1/requests',
          name: 'a reused key with another spec',
          want: code('idempotency_conflict', 409),
          call: {
            method: 'POST',
            path: '/api/v1/requests',
            headers: jsonHeaders(target.token, { 'Idempotency-Key': reused }),
            body: JSON.stringify(validSpec({ title: 'second' })),
          },
        },
        {
          operation: 'POST /api/v1/requests',
          name: 'an expiry after the token ends',
          want: code('grant_expires_first', 422),
          call: {
            method: 'POST',
            path: '/api/v1/requests',
            headers: jsonHeaders(short.token, { 'Idempotency-Key': newKey() }),
            body: JSON.stringify(twoDays),
          },
        },
        {
          operation: 'POST /api/v1/requests/preview',
          name: 'an expiry after the token ends',
          want: code('grant_expires_first', 422),
          call: { method: 'POST', path: '/api/v1/requests/preview', headers: jsonHeaders(short.token), body: JSON.stringify(twoDays) },
        },
        {
          operation: 'PUT /api/v1/requests/{request_id}',
          name: 'an expiry after the token ends',
          want: code('grant_expires_first', 422),
          call: put(short.token, String(shortView.id), 1, twoDays),
        },
        {
          operation: 'PUT /api/v1/requests/{request_id}',
          name: 'a revision one ahead',
          want: code('revision_conflict', 409),
          call: put(target.token, target.requestId, target.revision + 1, validSpec({ title: 'stale' })),
        },
        {
          operation: 'PUT /api/v1/requests/{request_id}',
          name: 'a revision far ahead',
          want: code('revision_conflict', 409),
          call: put(target.token, target.requestId, 2 ** 31, validSpec({ title: 'stale' })),
        },
      ]
      const before = await rowCounts()
      const viewBefore = await viewOfTarget()
      expect(await refusalProblems(batch)).toEqual([])
      expect(await rowCounts()).toEqual(before)
      expect(await viewOfTarget()).toEqual(viewBefore)
      expect(expectNoLeaks().responses).toBeGreaterThanOrEqual(batch.length)
    },
    BATCH_TIMEOUT_MS,
  )
})

describe('the edges themselves', () => {
  it(
    "are accepted by preview, so each refused value is exactly one step outside the document's bounds",
    async () => {
      const spec = doc.operations.find((o) => operationName(o) === 'POST /api/v1/requests/preview')?.body
      expect(spec).toBeDefined()
      const edges = edgeMutants(spec ?? {}, specExamples(), (value) => RequestSpec.safeParse(value).success)
      expect(edges.map((e) => e.name)).toEqual(
        expect.arrayContaining(['party_size at its maximum 20', 'venue_ids at maxItems 8', 'dates at maxItems 42']),
      )
      const before = await rowCounts()
      const answers = await mapBounded(edges, CONCURRENCY, (edge) =>
        send({ method: 'POST', path: '/api/v1/requests/preview', headers: jsonHeaders(target.token), body: JSON.stringify(edge.value) }),
      )
      expect(answers.map((a, i) => `${edges[i]!.name}: ${a.status}`)).toEqual(edges.map((e) => `${e.name}: 200`))
      expect(await rowCounts()).toEqual(before)
      expectNoLeaks()
    },
    BATCH_TIMEOUT_MS,
  )
})
