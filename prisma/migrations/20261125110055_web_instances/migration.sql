-- CreateTable
CREATE TABLE "WebInstance" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "addresses" TEXT[],
    "port" INTEGER NOT NULL,
    "beatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebInstance_pkey" PRIMARY KEY ("id")
);
