ALTER TABLE `notifications` ADD `groups` text;--> statement-breakpoint
ALTER TABLE `users` ADD `alert_gap_minutes` integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `daily_alert_cap` integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `notices_off` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `webhook_format` text DEFAULT 'json' NOT NULL;