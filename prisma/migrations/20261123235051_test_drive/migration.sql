-- AlterTable
ALTER TABLE "Preparation" ADD COLUMN     "testDrive" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "testDriveDone" BOOLEAN NOT NULL DEFAULT false;
