// Markdown files are bundled as text by the `[[rules]] type = "Text"` entry in wrangler.toml.
declare module '*.md' {
  const text: string
  export default text
}
