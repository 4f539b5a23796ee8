import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";
import { document } from "./documents.ts";
import { user } from "./users.ts";

// AI chat (spec §3 chat topic: id, uuid, category). category: 1 AI 对话 (dialog), 2 AI 搜索 (search).
export const chatTopic = sqliteTable("chat_topic", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  uuid: text("uuid").notNull(),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  category: integer("category").notNull().default(1),
  title: text("title").notNull().default(""),
  message_count: integer("message_count").notNull().default(0),
  ...timestamps,
}, (t) => [uniqueIndex("chat_topic_uuid").on(t.uuid), index("chat_topic_user").on(t.user_id, t.category, t.updated_at)]);

/** The documents a topic is scoped to; a topic without rows searches the whole library. */
export const chatTopicDocument = sqliteTable("chat_topic_document", {
  topic_id: integer("topic_id").notNull().references(() => chatTopic.id, { onDelete: "cascade" }),
  document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.topic_id, t.document_id] })]);

// status: 0 generating, 1 done, 2 stopped (by the user), 3 failed, 4 refused (quota). See features/ai/status.ts.
export const chatMessage = sqliteTable("chat_message", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  topic_id: integer("topic_id").notNull().references(() => chatTopic.id, { onDelete: "cascade" }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  question: text("question").notNull(),
  /** the standalone search query retrieval used (follow-ups resolved against the history) */
  search_query: text("search_query").notNull().default(""),
  answer: text("answer").notNull().default(""),
  /** JSON array of { title, uuid, page, score } in citation order ([1] is the first) */
  references: text("references").notNull().default("[]"),
  status: integer("status").notNull().default(0),
  error: text("error").notNull().default(""),
  provider: text("provider").notNull().default(""),
  model: text("model").notNull().default(""),
  prompt_tokens: integer("prompt_tokens").notNull().default(0),
  completion_tokens: integer("completion_tokens").notNull().default(0),
  total_tokens: integer("total_tokens").notNull().default(0),
  /** true when the provider reported no usage and the counts are estimates */
  usage_estimated: integer("usage_estimated", { mode: "boolean" }).notNull().default(false),
  /** milliseconds from the question to the first token, and to the end */
  first_token_ms: integer("first_token_ms").notNull().default(0),
  duration_ms: integer("duration_ms").notNull().default(0),
  ...timestamps,
}, (t) => [
  index("chat_message_topic").on(t.topic_id, t.id),
  index("chat_message_user").on(t.user_id, t.created_at),
  index("chat_message_created").on(t.created_at),
  index("chat_message_status").on(t.status),
]);

/** A user's own AI limits set by an administrator; NULL inherits from groups/VIP, -1 is unlimited. */
export const aiQuota = sqliteTable("ai_quota", {
  user_id: integer("user_id").primaryKey().references(() => user.id, { onDelete: "cascade" }),
  questions_per_day: integer("questions_per_day"),
  tokens_per_month: integer("tokens_per_month"),
  ...timestamps,
});

/**
 * What each question cost, kept apart from the messages so that deleting a conversation gives no
 * quota back: one row per answered question (refused ones have none), tokens filled in at the end.
 */
export const aiUsage = sqliteTable("ai_usage", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  /** the message it was for; kept after the message is deleted */
  message_id: integer("message_id").notNull(),
  tokens: integer("tokens").notNull().default(0),
  ...timestamps,
}, (t) => [index("ai_usage_user").on(t.user_id, t.created_at), uniqueIndex("ai_usage_message").on(t.message_id)]);
