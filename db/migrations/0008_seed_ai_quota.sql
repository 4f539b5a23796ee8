-- Administrators ask the AI without limits out of the box; members keep the column defaults (50 questions a day).
UPDATE `group` SET `ai_questions_per_day` = -1, `ai_tokens_per_month` = -1 WHERE `id` = 1;
