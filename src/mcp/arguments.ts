// A tool's arguments as the SDK sees them: the zod schema's JSON Schema in tools/list, and a
// check whose outcome goes to the tool instead of failing inside the SDK, so a refused argument
// reaches the assistant as the contract's `{code, message}` tool error (with the REST 422
// `detail` items) like every other refusal.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import type { ValidationError } from '../errors'
import { requireKey } from '../request-use-cases/idempotency'
import { validationError } from '../request-use-cases/validation'

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ValidationError }

export function toolArguments<S extends z.ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, Checked<z.output<S>>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'tablewatch',
      jsonSchema: schema['~standard'].jsonSchema,
      validate: (value: unknown) => {
        const parsed = schema.safeParse(value)
        const checked: Checked<z.output<S>> = parsed.success
          ? { ok: true, value: parsed.data }
          : { ok: false, error: validationError(parsed.error.issues, 'arguments', value) }
        return { value: checked }
      },
    },
  }
}

/** The valid arguments, or the refusal thrown for runTool to answer. */
export function argumentsOf<T>(checked: Checked<T>): T {
  if (!checked.ok) {
    // The contract names this one: a missing key is `idempotency_key_required`, as on REST.
    const keyMissing = checked.error.detail.some((d) => d.loc.join('.') === 'arguments.idempotency_key' && d.type === 'missing')
    if (keyMissing) requireKey(undefined, 'Send the idempotency_key argument')
    throw checked.error
  }
  return checked.value
}
