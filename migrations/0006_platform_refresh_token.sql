ALTER TABLE `platform_connections` ADD `refresh_ciphertext` text;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `refresh_iv` text;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `token_expires_at` integer;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `token_obtained_at` integer;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `renewal_holder` text;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `renewal_lease_until` integer;