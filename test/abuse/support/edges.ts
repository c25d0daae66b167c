// The other side of each "±1": every min/max of an object's fields, at the edge itself.
// Paired with the bad inputs one step outside, it pins each boundary where the document says.
import type { Mutant, ObjectExamples } from './mutate'
import type { JsonSchema } from './openapi'

function edgesOf(field: string, schema: JsonSchema, examples: ObjectExamples): Mutant[] {
  const out: Mutant[] = []
  for (const key of ['minimum', 'maximum'] as const) {
    const value = schema[key]
    if (value !== undefined) out.push({ name: `${field} at its ${key} ${value}`, value })
  }
  if (schema.maxLength !== undefined) out.push({ name: `${field} at maxLength ${schema.maxLength}`, value: 'x'.repeat(schema.maxLength) })
  if (schema.minLength !== undefined && schema.minLength > 0)
    out.push({ name: `${field} at minLength ${schema.minLength}`, value: 'x'.repeat(schema.minLength) })
  const items = examples.items?.[field]
  if (items && schema.minItems !== undefined) out.push({ name: `${field} at minItems ${schema.minItems}`, value: items(schema.minItems) })
  if (items && schema.maxItems !== undefined) out.push({ name: `${field} at maxItems ${schema.maxItems}`, value: items(schema.maxItems) })
  return out
}

/** Valid objects with one field at an edge; `accepts` (the zod schema) drops edges it refuses for other reasons. */
export function edgeMutants(schema: JsonSchema, examples: ObjectExamples, accepts: (value: unknown) => boolean): Mutant[] {
  return Object.entries(schema.properties ?? {})
    .flatMap(([field, prop]) =>
      edgesOf(field, prop, examples).map((m) => ({ name: m.name, value: { ...examples.valid, [field]: m.value } })),
    )
    .filter((m) => accepts(m.value))
}
