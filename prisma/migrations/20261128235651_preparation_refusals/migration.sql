-- AlterTable
ALTER TABLE "Preparation" ADD COLUMN     "refusals" JSONB NOT NULL DEFAULT '[]';
