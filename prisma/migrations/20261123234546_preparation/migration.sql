-- CreateTable
CREATE TABLE "Preparation" (
    "configuratorId" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "builds" INTEGER NOT NULL DEFAULT 0,
    "failedBuilds" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "Preparation_pkey" PRIMARY KEY ("configuratorId")
);

-- AddForeignKey
ALTER TABLE "Preparation" ADD CONSTRAINT "Preparation_configuratorId_fkey" FOREIGN KEY ("configuratorId") REFERENCES "Configurator"("id") ON DELETE CASCADE ON UPDATE CASCADE;
