CREATE TABLE "report_schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"frequency" text NOT NULL,
	"day" integer NOT NULL,
	"hour" integer NOT NULL,
	"recipients" text[] NOT NULL,
	"link_days" integer NOT NULL,
	"active" boolean NOT NULL,
	"next_send_at" timestamp with time zone NOT NULL,
	"link_base" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_schedules_profile_key" UNIQUE("profile_id")
);
--> statement-breakpoint
CREATE TABLE "report_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"schedule_id" text,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"recipients" text[] NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"link_id" text NOT NULL,
	"sealed_token" text,
	"link_base" text NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sends" ADD CONSTRAINT "report_sends_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sends" ADD CONSTRAINT "report_sends_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sends" ADD CONSTRAINT "report_sends_link_id_report_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."report_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_schedules_due_idx" ON "report_schedules" USING btree ("next_send_at") WHERE "report_schedules"."active";--> statement-breakpoint
CREATE INDEX "report_sends_profile_idx" ON "report_sends" USING btree ("owner_id","profile_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_sends_scheduled_period_key" ON "report_sends" USING btree ("profile_id","period_from","period_to") WHERE "report_sends"."schedule_id" is not null;