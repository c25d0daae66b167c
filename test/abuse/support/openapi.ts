// The served OpenAPI document, read with zod: its operations (method, path, parameters,
// body schema) and the JSON Schemas the bad inputs are derived from.
import { z } from 'zod'
import { send } from './http'

export interface JsonSchema {
  $ref?: string | undefined
  /** A list for nullable values (["string", "null"]). */
  type?: string | string[] | undefined
  properties?: Record<string, JsonSchema> | undefined
  required?: string[] | undefined
  additionalProperties?: boolean | undefined
  items?: JsonSchema | undefined
  enum?: unknown[] | undefined
  const?: unknown
  minimum?: number | undefined
  maximum?: number | undefined
  exclusiveMinimum?: number | undefined
  exclusiveMaximum?: number | undefined
  minLength?: number | undefined
  maxLength?: number | undefined
  minItems?: number | undefined
  maxItems?: number | undefined
  pattern?: string | undefined
  format?: string | undefined
  default?: unknown
}

export const JsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.object({
    $ref: z.string().optional(),
    type: z.union([z.string(), z.array(z.string())]).optional(),
    properties: z.record(z.string(), JsonSchema).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.boolean().optional(),
    items: JsonSchema.optional(),
    enum: z.array(z.unknown()).optional(),
    const: z.unknown().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    pattern: z.string().optional(),
    format: z.string().optional(),
    default: z.unknown().optional(),
  }),
)

const Parameter = z.object({
  name: z.string(),
  in: z.enum(['path', 'query', 'header', 'cookie']),
  required: z.boolean().optional(),
  schema: JsonSchema,
})

const Operation = z.object({
  operationId: z.string().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z.array(Parameter).optional(),
  requestBody: z
    .object({ required: z.boolean().optional(), content: z.object({ 'application/json': z.object({ schema: JsonSchema }) }) })
    .optional(),
})

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
const UPPER = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' } as const

const Document = z.object({
  openapi: z.string(),
  info: z.object({ version: z.string() }),
  paths: z.record(z.string(), z.partialRecord(z.enum(METHODS), Operation)),
  components: z.object({ schemas: z.record(z.string(), JsonSchema) }),
})

export type Parameter = z.infer<typeof Parameter>

export interface ApiOperation {
  method: (typeof UPPER)[keyof typeof UPPER]
  /** The path template as the document gives it, e.g. /api/v1/requests/{request_id} */
  path: string
  parameters: Parameter[]
  /** The JSON body schema with $refs resolved, when the operation takes a body. */
  body: JsonSchema | undefined
}

export interface ApiDocument {
  operations: ApiOperation[]
  schemas: Record<string, JsonSchema>
}

/** Replaces every `$ref` to a component with the component itself. */
export function resolveRefs(schema: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '')
    const target = schemas[name]
    if (!target) throw new Error(`unknown $ref ${schema.$ref}`)
    return resolveRefs(target, schemas)
  }
  const out: JsonSchema = { ...schema }
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolveRefs(v, schemas)]))
  }
  if (schema.items) out.items = resolveRefs(schema.items, schemas)
  return out
}

export async function loadApiDocument(): Promise<ApiDocument> {
  const answer = await send({ method: 'GET', path: '/api/v1/openapi.json' })
  if (answer.status !== 200) throw new Error(`openapi.json answered ${answer.status}`)
  const doc = Document.parse(answer.json)
  const operations: ApiOperation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const bodySchema = op.requestBody?.content['application/json'].schema
      operations.push({
        method: UPPER[method],
        path,
        parameters: op.parameters ?? [],
        body: bodySchema ? resolveRefs(bodySchema, doc.components.schemas) : undefined,
      })
    }
  }
  return { operations, schemas: doc.components.schemas }
}

/** "POST /api/v1/requests" */
export const operationName = (op: Pick<ApiOperation, 'method' | 'path'>) => `${op.method} ${op.path}`
