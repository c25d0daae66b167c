CREATE TABLE `oauth_refresh_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`grant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`generation` integer NOT NULL,
	`issued_at` integer NOT NULL,
	`grace_used_at` integer
);
--> statement-breakpoint
CREATE INDEX `oauth_refresh_tokens_grant` ON `oauth_refresh_tokens` (`grant_id`,`generation`);--> statement-breakpoint
CREATE INDEX `oauth_refresh_tokens_issued` ON `oauth_refresh_tokens` (`issued_at`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`window_start` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limits_window` ON `rate_limits` (`window_start`);--> statement-breakpoint
DROP TABLE `login_attempts`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `password_pepper_version` integer;