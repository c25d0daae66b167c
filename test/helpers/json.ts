// The JSON bodies tests read field by field, asserting as they go. Typing each answer here would
// copy the zod schemas the service itself validates with, so the one loose type lives here.
// biome-ignore lint/suspicious/noExplicitAny: test-side JSON, read field by field (see above)
export type JsonBody = Record<string, any>
