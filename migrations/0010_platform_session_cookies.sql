ALTER TABLE `platform_connections` ADD `refresh_via` text;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `refresh_expires_at` integer;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `cdn_cookies_ciphertext` text;--> statement-breakpoint
ALTER TABLE `platform_connections` ADD `cdn_cookies_iv` text;