// JSON Schemas every host accepts. zod writes a nullable field as `type: ["string", "null"]`,
// which strict hosts (OpenAI's strict function schemas, some MCP clients' validators) refuse;
// `anyOf` with a `{type: "null"}` branch says the same thing in the form they all read.
// Applied to the input and output schemas tools/list serves; validation is
// the zod schema's own, unchanged.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'

/** Keywords that describe the field as a whole and stay beside `anyOf`. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'])

type Schema = Record<string, unknown>
const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The schema with every `type` array rewritten as `anyOf` of single types, at any depth. */
function withoutTypeArrays(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTypeArrays)
  if (!isObject(schema)) return schema
  const walked: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withoutTypeArrays(value)]))
  const { type } = walked
  if (!Array.isArray(type)) return walked
  const annotations: Schema = {}
  const constraints: Schema = {}
  for (const [key, value] of Object.entries(walked)) {
    if (key === 'type') continue
    if (ANNOTATIONS.has(key)) annotations[key] = value
    else constraints[key] = value
  }
  // Constraints of one type (a pattern, a minimum) go with that type's branch; `null` needs none.
  const branches = type.map((single) => (single === 'null' ? { type: 'null' } : { type: single, ...constraints }))
  return { ...annotations, anyOf: branches }
}

function rewritten(schema: Schema): Schema {
  const result = withoutTypeArrays(schema)
  return isObject(result) ? result : schema
}

/** The same schema, with portable JSON Schema output for both directions. */
export function portable<I, O>(schema: StandardSchemaWithJSON<I, O>): StandardSchemaWithJSON<I, O> {
  const standard = schema['~standard']
  const convert = standard.jsonSchema
  return {
    '~standard': {
      ...standard,
      jsonSchema: {
        input: (options) => rewritten(convert.input(options)),
        output: (options) => rewritten(convert.output(options)),
      },
    },
  }
}
