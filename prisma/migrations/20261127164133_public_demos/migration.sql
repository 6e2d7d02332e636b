-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "publicDemo" BOOLEAN NOT NULL DEFAULT false;

-- The demos seeded before this column: each one's application for localhost (lib/demo/seed-demo-content.ts).
UPDATE "Application" SET "publicDemo" = true
WHERE "licenseUUID" = 'demo' AND "domain" = 'localhost' AND "name" LIKE '% demo shop';
