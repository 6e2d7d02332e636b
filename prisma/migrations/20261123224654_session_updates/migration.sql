-- AlterTable
ALTER TABLE "ConfigSession" ADD COLUMN     "pendingValues" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "storedVersion" INTEGER NOT NULL DEFAULT 0;

-- Every session's stored values hold all its updates so far.
UPDATE "ConfigSession" SET "storedVersion" = "version";
