// A request's tables at a glance, in one line: "36 tables found · soonest Wed, Dec 2 · 7:00 PM ET",
// the dinner in its restaurant's zone; and when the newest was found, in relative words.
import type { FoundSummary } from '../../alerts/found-tables'
import { ago, formatLocal } from '../../html/format'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function foundWords(summary: FoundSummary): string {
  const { soonest } = summary
  if (!soonest) return 'No table found yet'
  const first = formatLocal(soonest.date, soonest.time, soonest.timeZone)
  return summary.count === 1 ? `1 table found · ${first}` : `${plural(summary.count, 'table')} found · soonest ${first}`
}

export function FoundLine(props: { summary: FoundSummary; now: number }) {
  const { summary } = props
  return (
    <p class="found-line">
      <strong>{foundWords(summary)}</strong>
      {summary.lastFoundAt !== null ? <span class="muted"> · last found {ago(summary.lastFoundAt, props.now)}</span> : null}
    </p>
  )
}
