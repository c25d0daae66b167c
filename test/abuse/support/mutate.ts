// Bad values derived from a JSON Schema of the served OpenAPI document: wrong types, each
// min/max broken by one, enums and patterns missed, broken formats, huge strings and arrays,
// missing required fields and unknown fields, at every depth of an object.
import type { JsonSchema } from './openapi'

export interface Mutant {
  name: string
  value: unknown
}

/** Just over the 64 KiB body limit, and just under it (so the value reaches validation). */
export const HUGE = 100_000
export const LARGE = 60_000

const SAMPLES: Record<string, unknown[]> = {
  string: ['7', 'true'],
  integer: [7, -3],
  number: [2.5],
  boolean: [true, false],
  null: [null],
  array: [[], [1]],
  object: [{}, { value: 1 }],
}

function wrongTypes(schema: JsonSchema, example: unknown): Mutant[] {
  const accepted = new Set([schema.type ?? ''])
  if (schema.type === 'number') accepted.add('integer')
  const out: Mutant[] = []
  for (const [type, values] of Object.entries(SAMPLES)) {
    if (accepted.has(type)) continue
    // 2.5 is a number but not an integer: a wrong type for integer fields only.
    for (const value of values) out.push({ name: `wrong type ${type} ${JSON.stringify(value)}`, value })
  }
  // The right value in the wrong shape: wrapped in an array, or as a string.
  if (example !== undefined && schema.type !== 'array') out.push({ name: 'valid value wrapped in an array', value: [example] })
  if (typeof example === 'number') out.push({ name: 'valid number sent as a string', value: String(example) })
  return out
}

function numberBoundaries(schema: JsonSchema): Mutant[] {
  const out: Mutant[] = []
  const step = schema.type === 'integer' ? 1 : 0.01
  if (schema.minimum !== undefined) {
    out.push({ name: `minimum ${schema.minimum} - 1`, value: schema.minimum - 1 })
    if (step !== 1) out.push({ name: `minimum ${schema.minimum} - ${step}`, value: schema.minimum - step })
  }
  if (schema.maximum !== undefined) {
    out.push({ name: `maximum ${schema.maximum} + 1`, value: schema.maximum + 1 })
    if (step !== 1) out.push({ name: `maximum ${schema.maximum} + ${step}`, value: schema.maximum + step })
  }
  if (schema.exclusiveMinimum !== undefined) {
    out.push({ name: `exclusive minimum ${schema.exclusiveMinimum} itself`, value: schema.exclusiveMinimum })
    out.push({ name: `exclusive minimum ${schema.exclusiveMinimum} - 1`, value: schema.exclusiveMinimum - 1 })
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    out.push({ name: 'a 1e308 magnitude', value: -1e308 })
    out.push({ name: 'beyond the safe integer range', value: 2 ** 63 })
  }
  return out
}

function lengthBoundaries(schema: JsonSchema): Mutant[] {
  const out: Mutant[] = []
  if (schema.minLength !== undefined && schema.minLength > 0) {
    out.push({ name: `minLength ${schema.minLength} - 1`, value: 'x'.repeat(schema.minLength - 1) })
  }
  if (schema.maxLength !== undefined) out.push({ name: `maxLength ${schema.maxLength} + 1`, value: 'x'.repeat(schema.maxLength + 1) })
  out.push({ name: `a ${LARGE / 1000} kB string`, value: 'y'.repeat(LARGE) })
  out.push({ name: `a ${HUGE / 1000} kB string`, value: 'z'.repeat(HUGE) })
  return out
}

function enumBreakers(schema: JsonSchema): Mutant[] {
  const values = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined)
  if (!values) return []
  const out: Mutant[] = []
  for (const v of values) {
    if (typeof v === 'string') {
      out.push({ name: `enum ${v} in upper case`, value: v.toUpperCase() })
      out.push({ name: `enum ${v} with a trailing space`, value: `${v} ` })
      out.push({ name: `enum ${v} with a NUL`, value: `${v}\u0000` })
    }
    if (typeof v === 'number') {
      out.push(
        { name: `enum ${v} - 1`, value: v - 1 },
        { name: `enum ${v} + 1`, value: v + 1 },
        { name: `enum ${v} + 0.5`, value: v + 0.5 },
      )
    }
  }
  if (values.every((v) => typeof v === 'string'))
    out.push({ name: 'enum empty string', value: '' }, { name: 'enum unknown word', value: 'sometimes' })
  return out
}

const FULLWIDTH = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))
const ARABIC_INDIC = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))

function patternBreakers(schema: JsonSchema, example: unknown): Mutant[] {
  if (!schema.pattern || typeof example !== 'string') return []
  const pattern = new RegExp(schema.pattern)
  const candidates = [
    '',
    ' ',
    `${example} `,
    ` ${example}`,
    `${example}\n`,
    `${example}0`,
    example.slice(0, -1),
    FULLWIDTH(example),
    ARABIC_INDIC(example),
    `${example}\u0000`,
    `${example}\u202e`,
    '24:00',
    '23:60',
    '7:00',
    '19-00',
    '19:00:00',
    '1900',
    '7pm',
  ]
  return [...new Set(candidates)].filter((c) => !pattern.test(c)).map((value) => ({ name: `pattern miss ${JSON.stringify(value)}`, value }))
}

/** Broken dates and date-times around a valid example, each refused by its format. */
function formatBreakers(schema: JsonSchema, example: unknown): Mutant[] {
  if (typeof example !== 'string') return []
  if (schema.format === 'date') {
    const [y, m] = example.split('-')
    return [
      `${y}-02-30`,
      `${y}-04-31`,
      `${y}-13-01`,
      `${y}-00-10`,
      `${y}-${m}-00`,
      `${y}-${m}-32`,
      `${y}-${Number(m)}-5`,
      example.replaceAll('-', ''),
      example.replaceAll('-', '/'),
      `${example}T00:00:00Z`,
      `${example} `,
      'today',
      'next friday',
      `${y}-W49-5`,
      ARABIC_INDIC(example),
      `+0${example}`,
      `${example}..${example}`,
    ].map((value) => ({ name: `bad date ${JSON.stringify(value)}`, value }))
  }
  if (schema.format === 'date-time') {
    const base = example.replace(/(Z|[+-]\d\d:\d\d)$/, '')
    const date = base.slice(0, 10)
    return [
      base,
      date,
      `${base}+0000`,
      `${base}+05`,
      `${base}+24:00`,
      `${base}-24:00`,
      `${base}Z+00:00`,
      `${base.replace('T', ' ')}+00:00`,
      `${date}T25:00:00Z`,
      `${date}T23:60:00Z`,
      `${date}T23:00:60Z`,
      `${base}+00:00 `,
      `${base}+00:00[America/New_York]`,
      `${base} America/New_York`,
      `${base}EST`,
      'tomorrow',
      String(Date.now()),
      `${date.replaceAll('-', '/')}T20:00:00Z`,
    ].map((value) => ({ name: `bad date-time ${JSON.stringify(value)}`, value }))
  }
  return []
}

/** Every bad value for one field whose valid value is `example`. */
export function badValues(schema: JsonSchema, example: unknown): Mutant[] {
  const out = [
    ...wrongTypes(schema, example),
    ...enumBreakers(schema),
    ...patternBreakers(schema, example),
    ...formatBreakers(schema, example),
  ]
  if (schema.type === 'integer' || schema.type === 'number') out.push(...numberBoundaries(schema))
  if (schema.type === 'string' && !schema.enum) out.push(...lengthBoundaries(schema))
  return out
}

/** Distinct valid items for an array field, `n` of them (to build arrays one over maxItems). */
export type ItemSource = (n: number) => unknown[]

function arrayMutants(schema: JsonSchema, example: unknown[], items: ItemSource | undefined): Mutant[] {
  const out: Mutant[] = []
  if (schema.minItems !== undefined && schema.minItems > 0)
    out.push({ name: `minItems ${schema.minItems} - 1`, value: items ? items(schema.minItems - 1) : [] })
  if (schema.maxItems !== undefined && items) out.push({ name: `maxItems ${schema.maxItems} + 1`, value: items(schema.maxItems + 1) })
  const first = example[0]
  out.push({ name: 'a 4,000-item array', value: Array.from({ length: 4000 }, () => first) })
  out.push({ name: 'the same item twice', value: [first, first] })
  if (schema.items) {
    for (const bad of badValues(schema.items, first)) {
      out.push({ name: `item 0: ${bad.name}`, value: [bad.value] })
      out.push({ name: `item 1: ${bad.name}`, value: [first, bad.value] })
    }
  }
  return out
}

const UNKNOWN_FIELDS: Mutant[] = [
  { name: 'unknown field "extra"', value: 'x' },
  { name: 'unknown field "constructor"', value: {} },
  { name: 'unknown field ""', value: 1 },
  { name: 'unknown field "toString"', value: 'x' },
]

export interface ObjectExamples {
  /** The valid value of the object. */
  valid: Record<string, unknown>
  /** Distinct valid items per array field, by field name. */
  items?: Record<string, ItemSource>
  /** Examples for nested objects, by field name. */
  nested?: Record<string, ObjectExamples>
}

/** Every mutant of a valid object: each field broken in turn, fields dropped or added. */
export function objectMutants(schema: JsonSchema, examples: ObjectExamples, where = ''): Mutant[] {
  const { valid } = examples
  const out: Mutant[] = []
  const at = (field: string) => (where ? `${where}.${field}` : field)
  const withField = (field: string, value: unknown) => ({ ...valid, [field]: value })
  for (const [field, prop] of Object.entries(schema.properties ?? {})) {
    const example = valid[field]
    const nested = examples.nested?.[field]
    if (prop.type === 'object' && nested) {
      for (const m of objectMutants(prop, nested, at(field))) out.push({ name: m.name, value: withField(field, m.value) })
    }
    const fieldMutants =
      prop.type === 'array' && Array.isArray(example)
        ? [...wrongTypes(prop, example), ...arrayMutants(prop, example, examples.items?.[field])]
        : badValues(prop, example)
    for (const m of fieldMutants) out.push({ name: `${at(field)}: ${m.name}`, value: withField(field, m.value) })
  }
  for (const field of schema.required ?? []) {
    const { [field]: _dropped, ...rest } = valid
    out.push({ name: `${at(field)}: missing`, value: rest })
  }
  if (schema.additionalProperties === false) {
    for (const m of UNKNOWN_FIELDS) {
      const name = /"(.*)"/.exec(m.name)?.[1] ?? 'extra'
      out.push({ name: `${where || 'body'}: ${m.name}`, value: { ...valid, [name]: m.value } })
    }
    const first = Object.keys(valid)[0]
    if (first)
      out.push({ name: `${where || 'body'}: a known field in upper case`, value: { ...valid, [first.toUpperCase()]: valid[first] } })
  }
  for (const m of wrongTypes({ type: 'object' }, undefined)) out.push({ name: `${where || 'body'} itself: ${m.name}`, value: m.value })
  return out
}
