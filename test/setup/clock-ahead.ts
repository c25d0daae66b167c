// The clock a year ahead, inside workerd. The CI step that runs the suites "a year from now"
// (.ci/run, docs/decisions/tests.md) moves Node's clock with libfaketime, which workerd cannot
// start under (its allocator deadlocks in libfaketime's start-up), so the runtimes get the same
// offset here: every `Date` of the isolate (tests, the service's workers and objects, and the
// sandbox, which injects this file into its bundle) reads `aheadMs` later than the machine's
// clock. Nothing changes when the offset is 0, the default.

const installed = Symbol.for('tablewatch.clockAheadMs')

/** Makes `Date` (now, `new Date()` and `Date()` without arguments) read `aheadMs` ahead, once per isolate. */
export function installClockAhead(aheadMs: number): void {
  if (!Number.isFinite(aheadMs) || aheadMs === 0 || installed in globalThis) return
  const RealDate = globalThis.Date
  const now = () => RealDate.now() + aheadMs
  // A proxy rather than a subclass: `Date()` called as a function, `instanceof Date`, `Date.parse`
  // and `Date.UTC` behave as they always do; only the readings of "now" move.
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args: unknown[]) => (args.length === 0 ? new target(now()) : Reflect.construct(target, args)),
    apply: () => new RealDate(now()).toString(),
    get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver)),
  })
  Object.defineProperty(globalThis, installed, { value: aheadMs })
}
