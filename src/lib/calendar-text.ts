// Dates and date-times as text, checked in two steps: a short pattern for the shape (what a JSON
// Schema can say in a few characters) and code for what the calendar and the clock allow. The
// exact patterns that encode month lengths and leap years run to hundreds of characters, which
// MCP hosts put into the model's context on every turn.

/** `YYYY-MM-DD`: the shape only (2026-02-30 matches). */
export const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/

/** `YYYY-MM-DDTHH:MM:SS[.fraction]` then `Z` or `±HH:MM`: the shape only. */
export const DATE_TIME_WITH_OFFSET_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Whether `YYYY-MM-DD` names a day the (proleptic Gregorian) calendar has. */
export function isCalendarDate(text: string): boolean {
  if (!DATE_SHAPE.test(text)) return false
  const [year, month, day] = text.split('-').map(Number) as [number, number, number]
  if (month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return day <= daysInMonth
}

/** Whether an RFC 3339 date-time with an offset names a real day, time and offset (seconds 00 to 59). */
export function isDateTimeWithOffset(text: string): boolean {
  if (!DATE_TIME_WITH_OFFSET_SHAPE.test(text) || !isCalendarDate(text.slice(0, 10))) return false
  const [hours, minutes, seconds] = text.slice(11, 19).split(':').map(Number) as [number, number, number]
  if (hours > 23 || minutes > 59 || seconds > 59) return false
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(text)
  return !offset || (Number(offset[2]) <= 23 && Number(offset[3]) <= 59)
}
