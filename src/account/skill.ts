// The instruction file for assistants. src/account/skill.md is the one source; the service's
// origin is filled in where the file says {base_url}.
import skill from './skill.md'

export const SKILL_VERSION = '1.0.0'

export function skillMarkdown(baseUrl: string): string {
  return skill.replaceAll('{base_url}', baseUrl)
}
