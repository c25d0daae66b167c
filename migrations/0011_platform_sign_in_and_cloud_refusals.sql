CREATE TABLE `cloud_refusals` (
	`user_id` text NOT NULL,
	`call` text NOT NULL,
	`signal` text NOT NULL,
	`first_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `call`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `platform_sign_ins` (
	`user_id` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`via` text NOT NULL,
	`step` text NOT NULL,
	`sealed` text NOT NULL,
	`iv` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`number_hint` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
