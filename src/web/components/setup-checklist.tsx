// The setup checklist a new user sees until it is done: connect the platform, then an
// assistant, then an example prompt to try. Each open step links to where it is done.
import type { SetupProgress } from '../../setup/setup-progress'

const EXAMPLE_PROMPT =
  'Find me a table for 2 at Marrow & Smoke next Friday or Saturday between 7 and 9 pm, and book it if one opens up with a cancellation fee of at most $25 per person.'

function Step(props: { done: boolean; title: string; children?: unknown }) {
  return (
    <li class={props.done ? 'step done' : 'step'}>
      <span class="step-mark" aria-hidden="true">
        {props.done ? '✓' : '○'}
      </span>
      <div>
        <p class="step-title">
          {props.title}
          <span class="visually-hidden">{props.done ? ' (done)' : ' (to do)'}</span>
        </p>
        {props.done ? null : props.children}
      </div>
    </li>
  )
}

export function SetupChecklist(props: { progress: SetupProgress }) {
  const p = props.progress
  return (
    <section class="card checklist" aria-labelledby="setup-heading">
      <h2 id="setup-heading">Get set up</h2>
      <ol class="steps">
        <Step done={p.platformConnected} title="Connect your reservation platform account">
          <p>
            Tablewatch watches and books with your own account. <a href="/settings#platform">Connect it in Settings</a>.
          </p>
        </Step>
        <Step done={p.assistantConnected} title="Connect an assistant">
          <p>
            Create a token for your assistant, or connect an MCP host with OAuth. <a href="/assistants">Go to Assistants</a>.
          </p>
        </Step>
        <Step done={p.firstRequest} title="Ask your assistant for a table">
          <p>Try this:</p>
          <blockquote class="example-prompt">{EXAMPLE_PROMPT}</blockquote>
          <p class="muted">Your assistant creates the request; you approve bookings here.</p>
        </Step>
      </ol>
    </section>
  )
}
