// The machine-readable contract at /api/v1/openapi.json.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../src/operations/table'
import { RequestSpec, UpdateBody } from '../../src/request-use-cases/schemas'
import { REST_ENDPOINTS } from '../helpers/operations'

interface OpenApiDocument {
  openapi: string
  info: { version: string; title: string }
  paths: Record<string, Record<string, { security?: Record<string, string[]>[]; responses: Record<string, unknown> }>>
  components: { securitySchemes: Record<string, { type: string; scheme?: string }>; schemas: Record<string, unknown> }
  security?: Record<string, string[]>[]
}

async function fetchDocument(): Promise<{ status: number; contentType: string; doc: OpenApiDocument }> {
  const res = await SELF.fetch('http://localhost/api/v1/openapi.json')
  return { status: res.status, contentType: res.headers.get('Content-Type') ?? '', doc: (await res.json()) as OpenApiDocument }
}

const ENDPOINTS = REST_ENDPOINTS

describe('openapi.json', () => {
  it('is served without a token as OpenAPI 3.1 declaring interface version 1.0.0', async () => {
    const { status, contentType, doc } = await fetchDocument()
    expect(status).toBe(200)
    expect(contentType).toContain('application/json')
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(doc.info.version).toBe('1.0.0')
  })

  it.each(ENDPOINTS)('documents %s %s with a success response', async (method, path) => {
    const { doc } = await fetchDocument()
    const operation = doc.paths[path]?.[method]
    expect(operation, `${method} ${path} missing; paths: ${Object.keys(doc.paths).join(', ')}`).toBeDefined()
    expect(Object.keys(operation!.responses).some((code) => code.startsWith('2'))).toBe(true)
  })

  it('declares a bearer security scheme that protects every endpoint', async () => {
    const { doc } = await fetchDocument()
    const bearer = Object.entries(doc.components.securitySchemes).find(([, s]) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer')
    expect(bearer).toBeDefined()
    for (const [method, path] of ENDPOINTS) {
      const security = doc.paths[path]?.[method]?.security ?? doc.security ?? []
      expect(
        security.some((req) => bearer![0] in req),
        `${method} ${path}`,
      ).toBe(true)
    }
  })

  it('documents the error bodies and the request spec', async () => {
    const { doc } = await fetchDocument()
    const schemas = JSON.stringify(doc.components.schemas)
    for (const field of ['venue_ids', 'earliest_time', 'max_cancellation_fee_per_person', 'expires_at', 'detail', 'loc']) {
      expect(schemas).toContain(`"${field}"`)
    }
    const create = doc.paths['/api/v1/requests']?.post
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '401', '409', '422', '429']))
  })

  it('names every operation with a unique operationId and gives it a realistic example that its own schemas accept', async () => {
    const { doc } = await fetchDocument()
    const seen: string[] = []
    for (const [method, path, name] of ENDPOINTS) {
      const operation = doc.paths[path]?.[method] as OperationWithExamples
      expect(operation.operationId, `${method} ${path}: operationId`).toBeDefined()
      seen.push(operation.operationId ?? '')
      const success = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))?.[1]
      const example = success?.content?.['application/json']?.example
      expect(example, `${method} ${path}: response example`).toBeDefined()
      const parsed = OPERATIONS[name].output.safeParse(example)
      expect(parsed.success, `${method} ${path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true)
      const body = operation.requestBody?.content['application/json']
      if (body) {
        expect(body.example, `${method} ${path}: body example`).toBeDefined()
        expect((path.endsWith('{request_id}') ? UpdateBody : RequestSpec).safeParse(body.example).success).toBe(true)
      }
    }
    expect(new Set(seen).size).toBe(ENDPOINTS.length)
  })
})

type OperationWithExamples = {
  operationId?: string
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>
  requestBody?: { content: Record<string, { example?: unknown }> }
}
