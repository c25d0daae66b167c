CREATE TABLE `platform_problems` (
	`kind` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`first_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	`last_detail` text NOT NULL
);
