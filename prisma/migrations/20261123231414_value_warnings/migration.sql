-- AlterTable
ALTER TABLE "ConfigSession" ADD COLUMN     "valueWarnings" TEXT NOT NULL DEFAULT '';
