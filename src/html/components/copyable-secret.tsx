// A secret shown once (a new token, a calendar feed address) with a Copy button that the page
// script shows where the clipboard works.

export function CopyableSecret(props: { id: string; value: string }) {
  return (
    <div class="token-box">
      <code id={props.id} class="token-value">
        {props.value}
      </code>
      <button type="button" class="button" data-copy={props.id} hidden>
        Copy
      </button>
    </div>
  )
}
