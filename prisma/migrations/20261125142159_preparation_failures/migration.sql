-- AlterTable
ALTER TABLE "Preparation" ADD COLUMN     "failures" JSONB NOT NULL DEFAULT '[]';
