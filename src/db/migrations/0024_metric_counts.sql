-- Unlogged (no WAL): every process adds its counts every 10 seconds, and a crash of the
-- database restarting them is what Prometheus reads as a counter reset.
CREATE UNLOGGED TABLE "metric_counts" (
	"name" text NOT NULL,
	"labels" text NOT NULL,
	"bucket" text NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "metric_counts_name_labels_bucket_pk" PRIMARY KEY("name","labels","bucket")
);
