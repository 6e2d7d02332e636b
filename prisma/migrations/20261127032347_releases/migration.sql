-- AlterTable
ALTER TABLE "ConfigSession" ADD COLUMN     "releaseId" UUID;

-- AlterTable
ALTER TABLE "Configurator" ADD COLUMN     "releaseId" UUID;

-- AlterTable
ALTER TABLE "Preparation" ADD COLUMN     "draft" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "Snapshot" ADD COLUMN     "releaseNumber" INTEGER;

-- CreateTable
CREATE TABLE "Release" (
    "id" UUID NOT NULL,
    "configuratorId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "mainFile" TEXT NOT NULL,
    "cadType" TEXT NOT NULL,
    "cadVersion" TEXT NOT NULL,
    "rendererType" TEXT NOT NULL,
    "rendererVersion" TEXT NOT NULL,
    "extraSettings" JSONB NOT NULL,
    "parameters" JSONB NOT NULL,
    "defaults" JSONB,
    "overridden" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Release_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReleaseFile" (
    "releaseId" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "contentType" TEXT NOT NULL,

    CONSTRAINT "ReleaseFile_pkey" PRIMARY KEY ("releaseId","path")
);

-- CreateIndex
CREATE UNIQUE INDEX "Release_configuratorId_number_key" ON "Release"("configuratorId", "number");

-- AddForeignKey
ALTER TABLE "Configurator" ADD CONSTRAINT "Configurator_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Release" ADD CONSTRAINT "Release_configuratorId_fkey" FOREIGN KEY ("configuratorId") REFERENCES "Configurator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReleaseFile" ADD CONSTRAINT "ReleaseFile_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConfigSession" ADD CONSTRAINT "ConfigSession_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release"("id") ON DELETE CASCADE ON UPDATE CASCADE;
