// Money as the service writes it everywhere (pages, alerts, mails, the calendar, the reasons a
// booking gives): always with its sign, cents only when there are some ("$25", "$12.50"). The
// platform's amounts are US dollars (src/platform/wire.ts).
export function dollars(amount: number): string {
  return `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`
}
