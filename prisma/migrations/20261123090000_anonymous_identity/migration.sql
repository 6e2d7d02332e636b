-- AlterTable
ALTER TABLE "AuthToken" ADD COLUMN     "identityId" UUID;

-- AlterTable
ALTER TABLE "ConfigSession" ADD COLUMN     "identityId" UUID;
