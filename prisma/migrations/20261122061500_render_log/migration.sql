-- AlterTable
ALTER TABLE "RenderSession" ADD COLUMN     "renderLog" TEXT NOT NULL DEFAULT '';
