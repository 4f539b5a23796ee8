// Loaded before every `bun test` file: quiet logs, test mode, fresh browser assets for page renders.
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL ??= "silent";
// app.request() has no socket address; route tests stand in for a proxy that names the client.
process.env.TRUST_PROXY = "1";
const { build } = await import("../../scripts/build.ts");
const { existsSync } = await import("node:fs");
if (!existsSync(new URL("../../dist/manifest.json", import.meta.url)) || process.env.WK_REBUILD) {
  const log = console.log;
  console.log = () => {};
  await build();
  console.log = log;
}
