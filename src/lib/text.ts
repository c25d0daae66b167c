// Text that someone else chose and a person will read (a request title, an OAuth client's name).

/**
 * Control characters (NUL, line breaks, the C0 and C1 blocks) and the bidirectional marks,
 * embeddings, overrides and isolates, which can make a name read as something it is not
 * ("Trusted\u202Eexe.gnp" shows as "Trustedpng.exe").
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export function withoutControlCharacters(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, '')
}
