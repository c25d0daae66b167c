// A code block with a Copy button (shown by the page script where the clipboard works). The
// block scrolls sideways on a phone, so it takes keyboard focus (axe: scrollable-region-focusable).

export function CodeBlock(props: { id: string; label: string; children: string }) {
  return (
    <div class="code-block">
      <pre tabindex={0}>
        <code id={props.id}>{props.children}</code>
      </pre>
      <button type="button" class="button secondary small copy" data-copy={props.id} aria-label={`Copy ${props.label}`} hidden>
        Copy
      </button>
    </div>
  )
}
