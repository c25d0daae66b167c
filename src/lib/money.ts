// Money as the pages, mails and calendar write it: always with its sign, cents only when there
// are some ("$25", "$12.50"). The platform's amounts are US dollars (src/platform/wire.ts).
export function dollars(amount: number): string {
  return `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`
}
