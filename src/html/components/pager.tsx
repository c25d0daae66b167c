// Paging for long lists on a page (alerts, trace, notifications): "Newer", "Page 2 of 5",
// "Older" as plain links with the page number in the query string.

export interface PageOf<T> {
  items: T[]
  /** 1-based. */
  page: number
  pages: number
  total: number
}

/** The page number a query string asked for: a positive integer, else 1. */
export function pageNumber(raw: string | undefined): number {
  const n = Number(raw)
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1
}

/** One page of a list that is already in memory; a page past the end shows the last one. */
export function pageOf<T>(all: T[], page: number, size: number): PageOf<T> {
  const pages = Math.max(1, Math.ceil(all.length / size))
  const current = Math.min(page, pages)
  return { items: all.slice((current - 1) * size, current * size), page: current, pages, total: all.length }
}

export function Pager<T>(props: { page: PageOf<T>; path: string; param: string; label: string; words?: [string, string] }) {
  const { page, pages } = props.page
  const [back, on] = props.words ?? ['Newer', 'Older']
  if (pages <= 1) return null
  const href = (n: number) => `${props.path}?${props.param}=${n}#${props.param}-pager`
  return (
    <nav class="pager" id={`${props.param}-pager`} aria-label={`Pages of ${props.label}`}>
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev">
          {back}
        </a>
      ) : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <a href={href(page + 1)} rel="next">
          {on}
        </a>
      ) : null}
    </nav>
  )
}
