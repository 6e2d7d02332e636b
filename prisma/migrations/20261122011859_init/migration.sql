-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'designer');

-- CreateEnum
CREATE TYPE "TokenKind" AS ENUM ('user', 'anonymous', 'server');

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'designer',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuthToken" (
    "id" UUID NOT NULL,
    "kind" "TokenKind" NOT NULL,
    "userId" UUID,
    "applicationId" UUID,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuthToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Configurator" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "mainFile" TEXT NOT NULL,
    "cadType" TEXT NOT NULL,
    "cadVersion" TEXT NOT NULL,
    "rendererType" TEXT NOT NULL,
    "rendererVersion" TEXT NOT NULL,
    "extraSettings" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Configurator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConfiguratorFile" (
    "configuratorId" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "contentType" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConfiguratorFile_pkey" PRIMARY KEY ("configuratorId","path")
);

-- CreateTable
CREATE TABLE "Application" (
    "id" UUID NOT NULL,
    "configuratorId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "licenseUUID" TEXT NOT NULL DEFAULT '',
    "domain" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "secretKey" TEXT NOT NULL,
    "secureInit" BOOLEAN NOT NULL DEFAULT false,
    "secureModel" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "AuthToken_userId_idx" ON "AuthToken"("userId");

-- CreateIndex
CREATE INDEX "AuthToken_applicationId_idx" ON "AuthToken"("applicationId");

-- CreateIndex
CREATE INDEX "Configurator_userId_idx" ON "Configurator"("userId");

-- CreateIndex
CREATE INDEX "ConfiguratorFile_blobHash_idx" ON "ConfiguratorFile"("blobHash");

-- CreateIndex
CREATE UNIQUE INDEX "Application_key_key" ON "Application"("key");

-- CreateIndex
CREATE INDEX "Application_configuratorId_idx" ON "Application"("configuratorId");

-- AddForeignKey
ALTER TABLE "AuthToken" ADD CONSTRAINT "AuthToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuthToken" ADD CONSTRAINT "AuthToken_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Configurator" ADD CONSTRAINT "Configurator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConfiguratorFile" ADD CONSTRAINT "ConfiguratorFile_configuratorId_fkey" FOREIGN KEY ("configuratorId") REFERENCES "Configurator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Application" ADD CONSTRAINT "Application_configuratorId_fkey" FOREIGN KEY ("configuratorId") REFERENCES "Configurator"("id") ON DELETE CASCADE ON UPDATE CASCADE;
