import { z } from "zod";
import { resolve } from "node:path";

// The one place that reads process.env: process-level settings only; site settings live in the config table.
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8880),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  ADMIN_USERNAME: z.string().min(1).optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  DIST_DIR: z.string().default("./dist"),
  // Only behind a reverse proxy that sets X-Forwarded-For may the server believe that header;
  // otherwise anyone could pick their own address and dodge per-IP limits.
  TRUST_PROXY: z.enum(["0", "1", "true", "false"]).default("0"),
});

const parsed = schema.parse(process.env);

export const env = {
  ...parsed,
  DATA_DIR: resolve(parsed.DATA_DIR),
  DIST_DIR: resolve(parsed.DIST_DIR),
  isProd: parsed.NODE_ENV === "production",
  isTest: parsed.NODE_ENV === "test",
  trustProxy: parsed.TRUST_PROXY === "1" || parsed.TRUST_PROXY === "true",
};
