// The JSON Schema a tool shows in tools/list, derived from its zod schema (the one the REST
// interface validates and documents with), in a form every host accepts and small enough to sit
// in a model's context on every turn:
// - no `$schema` (hosts read tool schemas as JSON Schema 2020-12 anyway);
// - zod's `type: ["string", "null"]`, which strict hosts (OpenAI's strict function schemas, some
//   MCP clients' validators) refuse, as `anyOf` with a `{type: "null"}` branch;
// - no ±(2^53 - 1) bounds, which zod adds to every integer and which say nothing to a model.
// Validation is the zod schema's own, unchanged (src/mcp/arguments.ts); dates are short patterns
// there already (src/lib/calendar-text.ts).
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'

/** Keywords that describe the field as a whole and stay beside `anyOf`. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'])

type Schema = Record<string, unknown>
const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value)

const mapValues = (object: Schema, f: (value: unknown) => unknown): Schema =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key, f(value)]))

/** zod's bounds for a JavaScript safe integer, on every `.int()`. */
const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER

function isSafeIntegerBound(key: string, value: unknown): boolean {
  return (key === 'maximum' && value === SAFE_INTEGER_BOUND) || (key === 'minimum' && value === -SAFE_INTEGER_BOUND)
}

/** A `type` array as `anyOf` of single types; constraints of one type go with that type's branch. */
function withoutTypeArray(schema: Schema): Schema {
  const { type } = schema
  if (!Array.isArray(type)) return schema
  const annotations: Schema = {}
  const constraints: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') continue
    if (ANNOTATIONS.has(key)) annotations[key] = value
    else constraints[key] = value
  }
  const branches = type.map((single) => (single === 'null' ? { type: 'null' } : { type: single, ...constraints }))
  return { ...annotations, anyOf: branches }
}

function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact)
  if (!isObject(schema)) return schema
  const kept = Object.entries(schema).filter(([key, value]) => key !== '$schema' && !isSafeIntegerBound(key, value))
  return withoutTypeArray(Object.fromEntries(kept.map(([key, value]) => [key, key === 'properties' ? compactEach(value) : compact(value)])))
}

/** A `properties` object: its keys are field names, never keywords, so only its values are rewritten. */
function compactEach(properties: unknown): unknown {
  return isObject(properties) ? mapValues(properties, compact) : properties
}

function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions)
  if (!isObject(schema)) return schema
  const kept = Object.entries(schema).filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
  return Object.fromEntries(
    kept.map(([key, value]) => [
      key,
      key === 'properties' && isObject(value) ? mapValues(value, withoutDescriptions) : withoutDescriptions(value),
    ]),
  )
}

/**
 * Three tools take the same request spec; its fields' descriptions are most of its size, so one
 * tool carries them and the others point there, keeping every constraint.
 */
function specDescribedBy(schema: Schema, tool: string): Schema {
  const properties = schema.properties
  if (!isObject(properties) || !isObject(properties.spec)) return schema
  const spec = withoutDescriptions(properties.spec)
  if (!isObject(spec)) return schema
  const description = `What to watch for: the same spec ${tool} takes (its fields are described there).`
  return { ...schema, properties: { ...properties, spec: { ...spec, description } } }
}

/** The JSON Schema as tools/list shows it. */
function toolJsonSchema(schema: Schema, describedBy?: string): Schema {
  const result = compact(schema)
  const compacted = isObject(result) ? result : schema
  return describedBy ? specDescribedBy(compacted, describedBy) : compacted
}

/** The same schema, with the tool form of its JSON Schema for both directions. */
export function asToolSchema<I, O>(schema: StandardSchemaWithJSON<I, O>, specDescribedIn?: string): StandardSchemaWithJSON<I, O> {
  const standard = schema['~standard']
  const convert = standard.jsonSchema
  return {
    '~standard': {
      ...standard,
      jsonSchema: {
        input: (options) => toolJsonSchema(convert.input(options), specDescribedIn),
        output: (options) => toolJsonSchema(convert.output(options), specDescribedIn),
      },
    },
  }
}
