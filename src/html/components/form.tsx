// Form building blocks: every form carries the CSRF field; fields show their error next to them.
import type { Child } from 'hono/jsx'
import { CSRF_FIELD } from '../../auth/csrf'

export function CsrfInput(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />
}

export interface FieldProps {
  label: string
  name: string
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'tel'
  value?: string
  error?: string | undefined
  hint?: string
  autocomplete?: string
  /** The keyboard a phone shows (a code: numeric). */
  inputMode?: 'numeric' | 'tel' | 'email'
  required?: boolean
  minLength?: number
  maxLength?: number
  min?: number
  max?: number
}

export function Field(props: FieldProps) {
  const hintId = props.hint ? `${props.name}-hint` : undefined
  const errorId = props.error ? `${props.name}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div class={props.error ? 'field has-error' : 'field'}>
      <label for={props.name}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      <input
        id={props.name}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value ?? ''}
        autocomplete={props.autocomplete}
        inputmode={props.inputMode}
        required={props.required}
        minlength={props.minLength}
        maxlength={props.maxLength}
        min={props.min}
        max={props.max}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
      />
      {props.error ? (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </div>
  )
}

export function Alert(props: { kind: 'error' | 'success' | 'info' | 'warning'; title?: string; children?: Child }) {
  return (
    <div class={`alert alert-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.title ? <p class="alert-title">{props.title}</p> : null}
      {props.children}
    </div>
  )
}
