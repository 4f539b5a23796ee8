-- Custom migration: usernames are compared without case at register (features/auth/accounts.ts).
-- Not UNIQUE: databases from before this rule may already hold "admin" beside "Admin".
CREATE INDEX IF NOT EXISTS `user_username_lower` ON `user` (lower(`username`));
