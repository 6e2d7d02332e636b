-- CreateTable
CREATE TABLE "ConfigSession" (
    "id" UUID NOT NULL,
    "configuratorId" UUID NOT NULL,
    "applicationId" UUID,
    "userId" UUID,
    "values" JSONB NOT NULL DEFAULT '{}',
    "version" INTEGER NOT NULL DEFAULT 0,
    "configuredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConfigSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SessionFile" (
    "id" TEXT NOT NULL,
    "sessionId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SessionFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RenderSession" (
    "id" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "rendererType" TEXT NOT NULL,
    "scene" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RenderSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CacheEntry" (
    "key" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "data" JSONB NOT NULL,
    "logMessage" TEXT NOT NULL,
    "logError" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "lastUsedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CacheEntry_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "ConfigSession_configuratorId_idx" ON "ConfigSession"("configuratorId");

-- CreateIndex
CREATE UNIQUE INDEX "SessionFile_sessionId_name_key" ON "SessionFile"("sessionId", "name");

-- CreateIndex
CREATE INDEX "RenderSession_sessionId_idx" ON "RenderSession"("sessionId");

-- CreateIndex
CREATE INDEX "CacheEntry_lastUsedAt_idx" ON "CacheEntry"("lastUsedAt");

-- AddForeignKey
ALTER TABLE "ConfigSession" ADD CONSTRAINT "ConfigSession_configuratorId_fkey" FOREIGN KEY ("configuratorId") REFERENCES "Configurator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConfigSession" ADD CONSTRAINT "ConfigSession_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SessionFile" ADD CONSTRAINT "SessionFile_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ConfigSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RenderSession" ADD CONSTRAINT "RenderSession_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ConfigSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
