// Turns zod issues into the contract's 422 body items: `{loc, msg, type}`.
// `type` names follow the widely used FastAPI/pydantic vocabulary so clients can branch on it.
import type { z } from '@hono/zod-openapi'
import { ValidationError, type ValidationIssue } from '../errors'

type Issue = z.core.$ZodIssue
/** Where the value was: a REST request part, or an MCP tool call's arguments. */
export type Location = 'body' | 'query' | 'path' | 'header' | 'arguments'

function typeOf(issue: Issue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined ? 'missing' : `${issue.expected}_type`
    case 'too_small':
      if (issue.origin === 'array' || issue.origin === 'string') return `${issue.origin === 'array' ? 'list' : 'string'}_too_short`
      return 'greater_than_equal'
    case 'too_big':
      if (issue.origin === 'array' || issue.origin === 'string') return `${issue.origin === 'array' ? 'list' : 'string'}_too_long`
      return 'less_than_equal'
    case 'invalid_format':
      return issue.format === 'regex' ? 'string_pattern_mismatch' : `${issue.format}_format`
    case 'unrecognized_keys':
      return 'extra_forbidden'
    case 'invalid_value':
      return 'enum'
    case 'not_multiple_of':
      return 'multiple_of'
    default:
      return 'value_error'
  }
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}

function segment(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key)
}

function issuesToDetail(issues: readonly Issue[], where: Location, input: unknown): ValidationIssue[] {
  const detail: ValidationIssue[] = []
  for (const issue of issues) {
    const path = issue.path.map(segment)
    if (issue.code === 'unrecognized_keys') {
      // One item per unknown field, located at that field, as a client expects.
      for (const key of issue.keys) {
        detail.push({ loc: [where, ...path, key], msg: `Unknown field "${key}" is not allowed.`, type: 'extra_forbidden' })
      }
      continue
    }
    const value = valueAt(input, issue.path)
    const msg = issue.code === 'invalid_type' && value === undefined ? 'This field is required.' : issue.message
    detail.push({ loc: [where, ...path], msg, type: typeOf(issue, value) })
  }
  return detail
}

export function validationError(issues: readonly Issue[], where: Location, input: unknown): ValidationError {
  return new ValidationError(issuesToDetail(issues, where, input))
}
