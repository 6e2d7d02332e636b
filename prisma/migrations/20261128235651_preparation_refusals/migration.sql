-- AlterTable
ALTER TABLE "Preparation" ADD COLUMN     "refusals" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "refusalsDone" BOOLEAN NOT NULL DEFAULT false;
