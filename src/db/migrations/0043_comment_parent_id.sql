ALTER TABLE "comments" ADD COLUMN "parent_id" text;--> statement-breakpoint
CREATE INDEX "comments_account_parent_idx" ON "comments" USING btree ("account_id","platform_parent_id") WHERE "comments"."platform_parent_id" is not null;--> statement-breakpoint
UPDATE "comments" c SET "parent_id" = p."id" FROM "comments" p
  WHERE c."platform_parent_id" IS NOT NULL AND p."account_id" = c."account_id" AND p."platform_comment_id" = c."platform_parent_id";--> statement-breakpoint
-- Kept by the database, not by the code that stores or deletes comments, so that a comment written
-- by any release (an older one during a rolling upgrade, or after a rollback) names its parent.
-- A comment names its parent as it is stored, when the parent is there already...
CREATE FUNCTION "comments_find_parent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."platform_parent_id" IS NULL THEN
    NEW."parent_id" := NULL;
  ELSE
    NEW."parent_id" := (SELECT p."id" FROM "comments" p
      WHERE p."account_id" = NEW."account_id" AND p."platform_comment_id" = NEW."platform_parent_id");
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "comments_find_parent" BEFORE INSERT OR UPDATE OF "platform_parent_id", "account_id" ON "comments"
  FOR EACH ROW EXECUTE FUNCTION "comments_find_parent"();--> statement-breakpoint
-- ...and a parent stored after its replies (or in the same statement) is named by them then.
CREATE FUNCTION "comments_adopt_replies"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "comments" c SET "parent_id" = n."id" FROM "comments_stored" n
    WHERE c."account_id" = n."account_id" AND c."platform_parent_id" = n."platform_comment_id"
      AND c."parent_id" IS DISTINCT FROM n."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "comments_adopt_replies" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS "comments_stored"
  FOR EACH STATEMENT EXECUTE FUNCTION "comments_adopt_replies"();--> statement-breakpoint
-- A deleted comment (an account's own reply deleted through the API) is no longer anyone's parent.
CREATE FUNCTION "comments_orphan_replies"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "comments" c SET "parent_id" = NULL FROM "comments_deleted" o
    WHERE c."account_id" = o."account_id" AND c."platform_parent_id" = o."platform_comment_id" AND c."parent_id" = o."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "comments_orphan_replies" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS "comments_deleted"
  FOR EACH STATEMENT EXECUTE FUNCTION "comments_orphan_replies"();
