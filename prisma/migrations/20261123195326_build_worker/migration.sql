-- CreateTable
CREATE TABLE "BuildWorker" (
    "id" TEXT NOT NULL,
    "queueIds" TEXT[],
    "slots" INTEGER NOT NULL,
    "running" JSONB NOT NULL DEFAULT '[]',
    "beatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BuildWorker_pkey" PRIMARY KEY ("id")
);
