import { expect, test } from "bun:test";
import { settingsMarkdown } from "../scripts/settings-doc.ts";

test("README lists exactly the settings groups and keys the code defines", async () => {
  const readme = await Bun.file(new URL("../README.md", import.meta.url)).text();
  expect(readme).toContain(settingsMarkdown());
});
