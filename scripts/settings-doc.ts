// Prints the README's list of settings groups and keys from src/features/settings/definitions.ts;
// tests/readme.test.ts checks README carries exactly this text, so the two cannot drift apart.
import { GROUPS } from "#src/features/settings/definitions.ts";

export function settingsMarkdown(): string {
  return GROUPS.map((g) => {
    const keys = g.settings.map((d) => `\`${d.name}\`${d.secret ? " (secret)" : ""}`).join(", ");
    return `- **${g.name}** (${g.label}${g.public ? "" : ", admin only"}): ${keys}`;
  }).join("\n");
}

if (import.meta.main) console.log(settingsMarkdown());
